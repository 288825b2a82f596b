// The v2 discovery document (docs/wire.md §1.2, §2, §12.4) and the `agents.evalSuite` facet the
// host advertises.

import { createHash, type KeyObject } from 'node:crypto';
import { EFFECT_SEAMS_PATH, FORK_MODES } from './fork.ts';
import { EVAL_SEAMS_PROFILE, EVAL_SEAMS_PROFILE_HOLDS, EVAL_SEAMS_PROFILE_RUN_EFFECTS, SEAMS_PROFILE } from '../../lib/client/seams.ts';
import { rawEd25519PublicKey } from '../../lib/evidence/ed25519.ts';
import type { EvalFacets } from './eval/port.ts';

export const PROTOCOL_VERSION = '2.0';
export const IMPLEMENTATION_NAME = 'openwop-eval-conformance-reference-host';

/** The facet this host implements in full; options may remove members or the whole facet. */
export const FULL_EVAL_FACETS: EvalFacets = {
  modes: ['golden', 'rubric', 'regression'],
  maxTasksPerSuite: 50,
  maxCostUsdPerSuite: 5,
  trajectory: true,
  trials: { maxTrials: 10 },
  fixtureMatching: true,
  regressionVerdict: true,
  recordedFixtures: true,
};

/**
 * Overrides of the advertised facet: each member replaced, or removed with `false`. A plain
 * object, so a known-bad host switches one behaviour with one key.
 */
export type EvalFacetOverrides = {
  [K in keyof EvalFacets]?: EvalFacets[K] | false;
};

export function resolveFacets(option: EvalFacetOverrides | false | undefined): EvalFacets | undefined {
  if (option === false) return undefined;
  const facets: Record<string, unknown> = { ...FULL_EVAL_FACETS };
  for (const [member, value] of Object.entries(option ?? {})) {
    if (value === false) delete facets[member];
    else if (value !== undefined) facets[member] = value;
  }
  if (!Array.isArray(facets.modes)) facets.modes = [];
  return facets as EvalFacets;
}

export interface Implementation {
  name: string;
  version: string;
  vendor: string;
}

export interface DiscoveryInput {
  implementation: Implementation;
  facets: EvalFacets | undefined;
  seams: boolean;
  /** The per-run effect reading is mounted too (CONTRACT §5). */
  runEffects: boolean;
  /** The hold step's release seam is mounted too (CONTRACT §3, §5); only with runEffects. */
  holds: boolean;
  /** The live counter is advertised to answer another op as a tool error (CONTRACT §5); only with holds. */
  liveToolErrors: boolean;
  /** The replay family is claimed and the fork served (docs/wire.md §5.5). */
  replay: boolean;
  fixtures: string[];
  publicKey: KeyObject;
  keyId: string;
}

export function buildDiscovery(input: DiscoveryInput): Record<string, unknown> {
  const agents: Record<string, unknown> = {
    status: 'experimental',
    since: '2.0',
    until: '2.1',
    witness: 'witnessable-gated',
  };
  if (input.facets !== undefined) agents.evalSuite = input.facets;
  const doc: Record<string, unknown> = {
    protocolVersions: [PROTOCOL_VERSION],
    preferredVersion: PROTOCOL_VERSION,
    implementation: { ...input.implementation },
    eventLogSchemaVersion: 3,
    signingKeys: [{ keyId: input.keyId, alg: 'ed25519', publicKey: rawEd25519PublicKey(input.publicKey), use: 'certification-bundle' }],
    fixtures: input.fixtures,
  };
  if (input.seams) {
    const holds = input.liveToolErrors ? EVAL_SEAMS_PROFILE : EVAL_SEAMS_PROFILE_HOLDS;
    const evalSeams = input.runEffects ? (input.holds ? holds : EVAL_SEAMS_PROFILE_RUN_EFFECTS) : undefined;
    doc.conformance = evalSeams === undefined ? { seamsProfile: SEAMS_PROFILE } : { seamsProfile: SEAMS_PROFILE, evalSeamsProfile: evalSeams };
  }
  doc.agents = agents;
  // The replay family (docs/wire.md §5.5): a replay fork, which for an eval run re-reads its log.
  if (input.replay)
    doc.replay = { status: 'stable', since: '2.0', witness: 'witnessable-gated', modes: [...FORK_MODES], effectSeamsManifest: EFFECT_SEAMS_PATH };
  return doc;
}

/** A strong ETag over the document's bytes. */
export function etagOf(bytes: string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/** `If-None-Match` matches when it is `*` or lists the tag (weak comparison, RFC 9110 §13.1.2). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}
