// What the RFC 0252 scenarios share: the facet members their legs need and an id no host minted.

import type { CertificationSeed } from '../../lib/certification-seed.ts';
import type { FacetMember } from '../../lib/ledger/scenario.ts';

/** RFC 0252 §A: recordedFixtures needs fixtureMatching; the fixtures' own `requires` gate the rest. */
export const RECORDED: FacetMember[] = ['recordedFixtures', 'fixtureMatching'];

/**
 * A run id of the caller's tenant (taken from `known`) that the host never minted, derived from the
 * certification seed under `use` (one label per use), so a replay asks for the same id.
 */
export function unknownRunId(seed: CertificationSeed, known: string, use: string): string {
  return `${known.slice(0, known.lastIndexOf('/'))}/${seed.hex(`unknown-run-id:${use}:${known}`)}`;
}
