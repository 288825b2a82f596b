// Rewrites the eval-profile table of README.md (between its two markers) from
// requirements/profiles.json: `npx tsx scripts/profiles-readme.ts`.
// test/profiles.test.ts fails while the README differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readProfileTable } from '../lib/evidence/keys.ts';
import { profilesMarkdown } from '../lib/evidence/profiles.ts';
import { PROFILES_END, PROFILES_START, withMarkedSection } from '../lib/readme-sections.ts';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
writeFileSync(README, withMarkedSection(readFileSync(README, 'utf8'), PROFILES_START, PROFILES_END, profilesMarkdown(readProfileTable())));
process.stdout.write('README.md: eval-profile table written\n');
