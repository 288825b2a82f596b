// Writes CONTRACT.md §7 (the demands and the rules that check them) from requirements/contract-demands.json.

import { readFileSync, writeFileSync } from 'node:fs';
import { CONTRACT_FILE, contractDemandsMarkdown, DEMANDS_END, DEMANDS_START, readContractDemands } from '../lib/contract-demands.ts';
import { withMarkedSection } from './readme-sections.ts';

writeFileSync(
  CONTRACT_FILE,
  withMarkedSection(readFileSync(CONTRACT_FILE, 'utf8'), DEMANDS_START, DEMANDS_END, contractDemandsMarkdown(readContractDemands())),
);
