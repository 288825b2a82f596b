// The census the wire mutants are placed by (./wire-mutants.ts): the reference host, unchanged,
// recording in-process every event its engine emits, per run, and every summary it serves. Its
// certification is the honest rows the mutants are compared with, so one certification serves both.
// And the placing: each candidate in the first suite where it changes what is served, or dropped.

import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import type { RunEventDoc } from '../reference/store.ts';
import { deepFreeze } from '../reference/frozen.ts';
import type { WireChoice } from '../honest-variants/wire.ts';
import { matchRoute } from '../../lib/routes/exchanges.ts';
import { validate, validateEventPayload, validateRunEvent } from '../../lib/schemas/index.ts';
import { answerWire, type ServedCandidate, servedCandidates, servedEventOptions } from './wire-mutants-served.ts';
import { type Census, type MutantCandidate, mutantCandidates, mutantOptions, same, type StreamEdit, WORDS, type WireMutant } from './wire-mutants.ts';

/** The reference host's options, recording into the census they return; sorted by `settle` once certified. */
export function censusHost(): { options: ReferenceHostOptions; wire: WireChoice; census: Census; settle: () => Census } {
  const census: Census = { runs: [], summaries: [] };
  const answers: NonNullable<Census['answers']> = [];
  const served = new Map<string, Map<number, RunEventDoc>>();
  const record = (doc: RunEventDoc): RunEventDoc => {
    const log = served.get(doc.runId) ?? new Map<number, RunEventDoc>();
    served.set(doc.runId, log);
    if (!log.has(doc.sequence)) log.set(doc.sequence, structuredClone(doc));
    return doc;
  };
  // Every JSON answer passes the proxy unchanged, recorded under its route.
  const wire: WireChoice = {
    rewriteJson: ({ method, pathname, status, body }) => {
      const route = matchRoute(method, pathname.split('/').filter(Boolean), {});
      if (route !== undefined) answers.push({ route: route.name, status, body: structuredClone(body) });
      return body;
    },
  };
  const options: ReferenceHostOptions = {
    hostBehaviour: {
      streamedEvent: record,
      polledEvents: (body) => {
        for (const doc of Array.isArray(body.events) ? (body.events as RunEventDoc[]) : []) record(doc);
        return body;
      },
    },
    engineBehaviour: {
      outgoingEvents: (emit) => {
        const send = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
        const run: Census['runs'][number] = { suiteId: '', events: [] };
        census.runs.push(run);
        return (type, payload) => {
          if (run.events.length === 0 && type === 'eval.started') run.suiteId = String(payload.suiteId);
          run.events.push([type, structuredClone(payload)]);
          send(type, payload);
        };
      },
      outgoingSummary: (summary, suite) => {
        const served = REFERENCE_BEHAVIOUR.outgoingSummary(summary, suite);
        census.summaries.push({ suiteId: suite.suiteId, summary: structuredClone(served) });
        return served;
      },
    },
  };
  // Runs of one suite may interleave with others' under concurrent legs: the order kept is by
  // suite, then by what was served, so two censuses of one host are equal.
  const key = (suiteId: string, doc: unknown) => `${suiteId}\u0000${JSON.stringify(doc)}`;
  const settle = (): Census => ({
    runs: census.runs.filter((run) => run.events.length > 0).sort((a, b) => key(a.suiteId, a.events).localeCompare(key(b.suiteId, b.events))),
    summaries: [...census.summaries].sort((a, b) => key(a.suiteId, a.summary).localeCompare(key(b.suiteId, b.summary))),
    answers: [...answers].sort((a, b) => key(`${a.route} ${a.status}`, a.body).localeCompare(key(`${b.route} ${b.status}`, b.body))),
    served: [...served.values()].map((log) => [...log.values()].sort((a, b) => a.sequence - b.sequence).map(deepFreeze)),
  });
  return { options, wire, census, settle };
}

function slug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/** The events of `run` as `edit` lets them through. */
function replay(edit: StreamEdit, events: Census['runs'][number]['events']): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  const emit = edit((type, payload) => out.push([type, structuredClone(payload)]));
  for (const [type, payload] of events) emit(type, structuredClone(payload));
  return out;
}

/** What `candidate` serves instead in the suite's runs, when it changes anything: the changed documents. */
function changedIn(candidate: MutantCandidate, suiteId: string, census: Census): { valid: boolean } | undefined {
  let changed = false;
  let valid = true;
  if (candidate.summary !== undefined) {
    for (const { summary } of census.summaries.filter((s) => s.suiteId === suiteId)) {
      const served = candidate.summary(summary);
      if (served === undefined) continue;
      changed = true;
      valid &&= validate('eval-summary', served).ok;
    }
  }
  if (candidate.events !== undefined) {
    for (const run of census.runs.filter((r) => r.suiteId === suiteId)) {
      const served = replay(candidate.events(), run.events);
      if (same(served, run.events)) continue;
      changed = true;
      valid &&= served.every(([type, payload]) => validateEventPayload(type, payload).ok);
    }
  }
  return changed ? { valid } : undefined;
}

/** What an answer or served-event candidate changes in the census, when it changes anything. */
function changedServed(candidate: ServedCandidate, census: Census): { valid: boolean } | undefined {
  let changed = false;
  let valid = true;
  if (candidate.answer !== undefined) {
    for (const answer of census.answers ?? []) {
      const served = candidate.answer(answer);
      if (served === undefined || same(served, answer.body)) continue;
      changed = true;
    }
  }
  if (candidate.served !== undefined) {
    // One edit over every run in turn, as one host serves them: a crossing needs the runs before it.
    const edit = candidate.served();
    for (const log of census.served ?? []) {
      for (const doc of log) {
        // An edit copies what it changes (the host hands it its frozen stored events, and `settle`
        // freezes these): the same object back is nothing changed, which most documents are.
        const served = edit(doc);
        if (served === doc || same(served, doc)) continue;
        changed = true;
        valid &&= validateRunEvent(served).ok;
      }
    }
  }
  return changed ? { valid } : undefined;
}

/** The suites of the census in the order a target is chosen: those run once, then the others, each by id. */
function suiteOrder(census: Census): string[] {
  const runs = new Map<string, number>();
  for (const { suiteId } of census.runs) runs.set(suiteId, (runs.get(suiteId) ?? 0) + 1);
  for (const { suiteId } of census.summaries) if (!runs.has(suiteId)) runs.set(suiteId, 1);
  return [...runs].sort(([a, n], [b, m]) => ((n === 1) !== (m === 1) ? (n === 1 ? -1 : 1) : a.localeCompare(b))).map(([id]) => id);
}

/** The mutants of `candidates` under `census`, and the no-ops (nothing served changes) dropped, by name. */
export function wireMutants(
  census: Census,
  candidates: readonly ServedCandidate[] = [...mutantCandidates(), ...servedCandidates()],
): { mutants: WireMutant[]; noOps: string[] } {
  const order = suiteOrder(census);
  const runsOf = (suiteId: string) => census.runs.filter((r) => r.suiteId === suiteId).length;
  const mutants: WireMutant[] = [];
  const noOps: string[] = [];
  for (const candidate of candidates) {
    const name = `wire-${candidate.perturbation}-${slug(candidate.member)}`;
    if (candidate.answer !== undefined || candidate.served !== undefined) {
      const change = changedServed(candidate, census);
      if (change === undefined) {
        noOps.push(name);
        continue;
      }
      const { member, perturbation } = candidate;
      const defect = `${member} ${WORDS[perturbation]}, in ${candidate.scope}${change.valid ? '' : ' (breaks its schema)'}`;
      const breaksSchema = !change.valid;
      mutants.push({
        name,
        defect,
        member,
        perturbation,
        breaksSchema,
        ...(candidate.answer === undefined
          ? { options: servedEventOptions(candidate.served!, breaksSchema) }
          : { options: {}, wire: answerWire(candidate.answer) }),
      });
      continue;
    }
    let placed = false;
    for (const suiteId of order) {
      const change = changedIn(candidate, suiteId, census);
      if (change === undefined) continue;
      const runs = runsOf(suiteId);
      const where = runs > 1 ? `each of the ${runs} runs of ${suiteId}` : `the run of ${suiteId}`;
      mutants.push({
        name,
        defect: `${candidate.member} ${WORDS[candidate.perturbation]}, in ${candidate.scope}, in ${where}${change.valid ? '' : ' (breaks its schema)'}`,
        member: candidate.member,
        perturbation: candidate.perturbation,
        suiteId,
        breaksSchema: !change.valid,
        options: mutantOptions(candidate, suiteId, !change.valid),
      });
      placed = true;
      break;
    }
    if (!placed) noOps.push(name);
  }
  return { mutants, noOps };
}
