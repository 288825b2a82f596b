// What the RFC 0252 scenarios share: the facet members their legs need and an id no host minted.

import { randomBytes } from 'node:crypto';
import type { FacetMember } from '../../lib/ledger/scenario.ts';

/** RFC 0252 §A: recordedFixtures needs fixtureMatching; the fixtures' own `requires` gate the rest. */
export const RECORDED: FacetMember[] = ['recordedFixtures', 'fixtureMatching'];

/** A run id of the caller's tenant (taken from `known`) that the host never minted. */
export function unknownRunId(known: string): string {
  return `${known.slice(0, known.lastIndexOf('/'))}/${randomBytes(12).toString('hex')}`;
}
