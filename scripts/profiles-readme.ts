// Rewrites the eval-profile table of requirements/README.md (between its two markers) from
// requirements/profiles.json: `npx tsx scripts/profiles-readme.ts`.
// test/profiles.test.ts fails while the document differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readProfileTable } from '../lib/evidence/keys.ts';
import { profilesMarkdown } from '../lib/evidence/profiles.ts';
import { PROFILES_END, PROFILES_START, withMarkedSection } from './readme-sections.ts';

const README = fileURLToPath(new URL('../requirements/README.md', import.meta.url));
writeFileSync(README, withMarkedSection(readFileSync(README, 'utf8'), PROFILES_START, PROFILES_END, profilesMarkdown(readProfileTable())));
process.stdout.write('requirements/README.md: eval-profile table written\n');
