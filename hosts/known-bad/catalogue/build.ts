// What every known-bad host entry is built from: the entry shape, and the reference host with one
// engine or server behaviour swapped (the one named defect of each entry).

import { HttpError } from '../../reference/errors.ts';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../../reference/eval/index.ts';
import type { HostBehaviour } from '../../reference/host-behaviour.ts';
import type { ReferenceHostOptions } from '../../reference/server.ts';

export interface KnownBadHost {
  /** kebab-case, unique across hosts and schema mutants. */
  name: string;
  /** One line: what this host gets wrong. */
  defect: string;
  /** The clause the defect breaks, e.g. `RFC 0244 §B`. */
  clause: string;
  /** The honest configuration the defect is a defect of. */
  base: ReferenceHostOptions;
  /** `base` plus the defect. */
  options: ReferenceHostOptions;
  /**
   * Suites the generated-suites leg generates when the matrix certifies this entry and its base
   * (with the matrix's fixed seed); absent, 0: the catalogue legs alone.
   */
  generatedSuites?: number;
}

export const REF = REFERENCE_BEHAVIOUR;

/** The reference host (or `base`) with one engine behaviour swapped. */
export function engine(
  behaviour: Partial<EngineBehaviour>,
  base: ReferenceHostOptions = {},
  more: ReferenceHostOptions = {},
): Pick<KnownBadHost, 'base' | 'options'> {
  return { base, options: { ...base, ...more, engineBehaviour: behaviour } };
}

/** The reference host (or `base`) with one server behaviour swapped. */
export function server(behaviour: Partial<HostBehaviour>, base: ReferenceHostOptions = {}): Pick<KnownBadHost, 'base' | 'options'> {
  return { base, options: { ...base, hostBehaviour: behaviour } };
}

/** Events of `type` leave the engine edited by `edit`; every other event as emitted. */
export function rewriting(type: string, edit: (payload: Record<string, unknown>) => Record<string, unknown>): EngineBehaviour['outgoingEvents'] {
  return (emit) => (t, payload) => emit(t, t === type ? edit({ ...payload }) : payload);
}

export function without(payload: Record<string, unknown>, member: string): Record<string, unknown> {
  delete payload[member];
  return payload;
}

/**
 * A run of another tenant, refused `403 id_tenant_mismatch` (`what` names it in the message): a
 * refusal that tells it apart from an unknown id, where the host must answer the same for both.
 */
export function refusedAsForeign(what: string): HostBehaviour['summaryRunFor'] {
  return (tenant, run) => {
    if (run !== undefined && run.tenant !== tenant) throw new HttpError(403, 'id_tenant_mismatch', `${what} belongs to another tenant`);
    return run;
  };
}
