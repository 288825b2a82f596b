// The kill matrix's pins, kept beside the known-bad hosts they hold (hosts/known-bad/README.md "Kill matrix").

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The pins: for every entry, the requirement ids it must make `executed-fail`, and for every
 * known-bad host the rules it must break, each as `<rfc>.<slug>/<rule>` (the id without its
 * `openwop.requirement.` prefix, then the rule's name).
 */
export interface KillMatrix {
  hosts: Record<string, string[]>;
  schemaMutants: Record<string, string[]>;
  rules: Record<string, string[]>;
}

const KILL_MATRIX_FILE = fileURLToPath(new URL('./kill-matrix.json', import.meta.url));

export function readKillMatrix(): KillMatrix {
  return JSON.parse(readFileSync(KILL_MATRIX_FILE, 'utf8')) as KillMatrix;
}
