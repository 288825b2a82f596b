import { validateRunEvent } from '../lib/schemas/index.ts';
import { checkEnvelope } from '../lib/schemas/envelope-verdicts.ts';
import { EventLog } from '../test/support/event-log.ts';
const log = new EventLog({ token: 'p', suiteId: 's', suiteVersion: '1', modes: ['golden'], taskCount: 1, trialCount: 1 });
log.trial('t', 0, { steps: [{ tool: 'x', inputs: {} }], usage: [{ inputTokens: 1, outputTokens: 1 }], decision: 'd', score: 1, passed: true });
const ev = log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
const e = ev[2]!;
const variants: Record<string, unknown> = {
  base: e,
  extraMember: { ...e, vendorX: 1 },
  tsNoOffset: { ...e, timestamp: '2026-11-30T00:00:00' },
  tsDateOnly: { ...e, timestamp: '2026-11-30' },
  seqFloat: { ...e, sequence: 2.0 },
  schemaVersion0: { ...e, schemaVersion: 0 },
  negZero: { ...e, sequence: -0 },
};
for (const [k, v] of Object.entries(variants)) {
  const a = validateRunEvent(v); const b = checkEnvelope(v as never);
  console.log(k, a.ok, a.ok ? '' : a.errors.slice(0, 2), '| live', b.ok, b.ok ? '' : b.errors.slice(0, 2));
}
for (const x of ev) { const a = validateRunEvent(x); if (!a.ok) console.log(x.type, a.errors); }
