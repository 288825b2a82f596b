// Round honest5 variants, part b (scratch).
import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR } from '../hosts/reference/eval/index.ts';
import { exactDecimal } from '../hosts/reference/eval/json.ts';
import { REFERENCE_PLAN_RULES } from '../hosts/reference/eval/plan.ts';
import { HttpError } from '../hosts/reference/errors.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';
import { everyForm, idEdits, isObj, padded, spelled, type Variant } from './honest5-helpers.ts';

export const VARIANTS_B: Variant[] = [
  {
    name: 'events-with-engine-version',
    reading: 'every RunEventDoc carries engineVersion 1',
    clause: 'docs/wire.md §5.1 (engineVersion optional)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname.endsWith('/events/poll') && isObj(value) && Array.isArray(value.events)
          ? JSON.stringify({ ...value, events: value.events.map((e) => ({ ...(e as object), engineVersion: 1 })) })
          : undefined,
      sseFrame: (frame) =>
        frame
          .split('\n')
          .map((l) => (l.startsWith('data: {') ? `data: ${JSON.stringify({ ...JSON.parse(l.slice(6)), engineVersion: 1 })}` : l))
          .join('\n'),
    },
  },
  {
    name: 'numbers-padded-polled',
    reading: 'updates-only SSE (events polled), every JSON number written with a fraction',
    clause: 'RFC 8259 §6; OpenWOP v2 SSE unsupported_stream_mode',
    options: {},
    wire: { noDebugStream: true },
    bytes: spelled({ number: padded }),
  },
  {
    name: 'members-reversed-polled',
    reading: 'updates-only SSE (events polled), every JSON object with its members reversed',
    clause: 'RFC 8259 §4; OpenWOP v2 SSE unsupported_stream_mode',
    options: {},
    wire: { noDebugStream: true },
    bytes: spelled({ keysReversed: true }),
  },
  {
    name: 'max-tasks-clamped',
    reading: 'maxTasksPerSuite is 4, and a suite of more tasks is run no further than its first 4 tasks',
    clause: 'RFC 0081 §D (an optional ceiling, the RFC 0058 clamp precedent); CONTRACT §2 ("or run no further than the ceiling")',
    options: {
      evalSuite: { maxTasksPerSuite: 4 },
      engineBehaviour: {
        taskCeilingRefusal: (suite, facets) => {
          if (facets.maxTasksPerSuite !== undefined && suite.tasks.length > facets.maxTasksPerSuite) suite.tasks.splice(facets.maxTasksPerSuite);
          return undefined;
        },
      },
    },
  },
  {
    name: 'task-ceiling-refused-422-vendor-code',
    reading: 'maxTasksPerSuite is 4, and a suite of more tasks is refused 422 with the vendor code acme.suite_too_large',
    clause: 'RFC 0081 §D (a ceiling; no refusal status fixed); docs/wire.md §4 ("too many tasks — refused"), §1.4 (vendor codes); CONTRACT §2 (any 4xx)',
    options: {
      evalSuite: { maxTasksPerSuite: 4 },
      engineBehaviour: {
        taskCeilingRefusal: (suite, facets) =>
          facets.maxTasksPerSuite !== undefined && suite.tasks.length > facets.maxTasksPerSuite
            ? { status: 422, error: 'acme.suite_too_large', message: 'the suite has more tasks than this host runs' }
            : undefined,
      },
    },
  },
  {
    name: 'field-named-by-json-pointer',
    reading: 'without trials, a §G refusal names its field only as a JSON pointer, details.pointer "/trials/count", the message naming none',
    clause: 'RFC 0244 §G ("naming the field": neither place nor form fixed); CONTRACT §6 (a JSON pointer)',
    options: {
      evalSuite: { trials: false },
      engineBehaviour: {
        featureRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
          const field = refusal?.details?.field;
          if (refusal === undefined || typeof field !== 'string') return refusal;
          return {
            ...refusal,
            message: 'the suite uses a feature this host does not advertise',
            details: {
              pointer: `/${field
                .replace(/\[\]/g, '/0')
                .replace(/\[(\d+)\]/g, '/$1')
                .replaceAll('.', '/')}`,
            },
          };
        },
      },
    },
  },
  {
    name: 'field-named-in-message-only',
    reading: 'without trials, a §G refusal names its field in its message alone, with no details',
    clause: 'RFC 0244 §G ("naming the field"); CONTRACT §6 (in message)',
    options: {
      evalSuite: { trials: false },
      engineBehaviour: {
        featureRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
          if (refusal === undefined) return refusal;
          const { details: _d, ...rest } = refusal;
          return rest;
        },
      },
    },
  },
  {
    name: 'fork-erased-410',
    reading: 'a fork of an eval run whose derived copy was erased is refused 410 run_expired',
    clause:
      'RFC 0252 Security (SHOULD be refused; no status fixed); docs/wire.md §5.5 (410 run_expired: the range the fork needs has expired); CONTRACT §6 (any 4xx)',
    options: {},
    bytes: {
      jsonStatus: (value, ctx) => (ctx.status === 409 && isObj(value) && value.error === 'eval_recorded_fixtures_gone' ? 410 : undefined),
      json: (value, ctx) =>
        ctx.status === 409 && isObj(value) && value.error === 'eval_recorded_fixtures_gone'
          ? JSON.stringify({ error: 'run_expired', message: 'the recorded fixtures this fork needs are gone' })
          : undefined,
    },
  },
  {
    name: 'cost-ceiling-fails-run',
    reading: 'maxCostUsdPerSuite 0.005: a run whose cost passes the ceiling ends run.failed at its end instead of eval.completed',
    clause: "RFC 0081 §D (an optional ceiling; how it is held is the host's); CONTRACT §6 (a run that ends without run.completed)",
    options: {
      evalSuite: { maxCostUsdPerSuite: 0.005 },
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let total = new Fraction(0);
          return (type, p) => {
            if (type === 'provider.usage' && p.costEstimateUsd !== undefined) total = total.add(exactDecimal(p.costEstimateUsd as number));
            if (type === 'eval.completed' && total.compare(exactDecimal(0.005)) > 0)
              throw new HttpError(422, 'acme.cost_ceiling_exceeded', 'the run cost more than maxCostUsdPerSuite');
            next(type, p);
          };
        },
      },
    },
  },
  {
    name: 'cost-ceiling-stops-mid-run',
    reading: 'maxCostUsdPerSuite 0.005: a run is stopped run.failed at the first event after its cost passes the ceiling',
    clause: 'RFC 0081 §D (an optional ceiling); CONTRACT §6 (a run that ends without run.completed)',
    options: {
      evalSuite: { maxCostUsdPerSuite: 0.005 },
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let total = new Fraction(0);
          return (type, p) => {
            if (total.compare(exactDecimal(0.005)) > 0) throw new HttpError(422, 'acme.cost_ceiling_exceeded', 'the run cost more than maxCostUsdPerSuite');
            if (type === 'provider.usage' && p.costEstimateUsd !== undefined) total = total.add(exactDecimal(p.costEstimateUsd as number));
            next(type, p);
          };
        },
      },
    },
  },
  {
    name: 'run-ids-with-tilde-and-dot',
    reading: "every run id's opaque part ends in .~_ (pattern-valid), so its path projection carries ~7E",
    clause: 'docs/wire.md §1.3 (opaque ^[A-Za-z0-9._~-]{16,128}$; encode every byte outside [A-Za-z0-9._-] as ~HH)',
    options: {},
    bytes: {
      outText: (t) =>
        t.replace(/(tenant-[ab])(\/|~2F)([A-Za-z0-9_-]{22})(?![A-Za-z0-9_~.-])/g, (_m, ten, sep, op) => {
          idEdits.n++;
          return `${ten}${sep}${op}${sep === '/' ? '.~_' : '.~7E_'}`;
        }),
      inText: (t) => t.replace(/(tenant-[ab])(\/|~2F)([A-Za-z0-9_-]{22})\.(~|~7E)_/g, '$1$2$3'),
    },
  },
  {
    name: 'timestamps-lower-case',
    reading: 'event timestamps written with lower-case t and z (2026-12-06t02:44:23.925z)',
    clause: 'RFC 3339 §5.6 NOTE (T and Z may be lower case); docs/wire.md §5.1 (a date-time)',
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace('T', 't').replace(/Z$/, 'z') })) },
  },
  {
    name: 'timestamps-india-offset',
    reading: 'event timestamps written in +05:30 local time (the same instant)',
    clause: 'RFC 3339 §4.2, §5.6 (time-numoffset); docs/wire.md §5.1',
    options: {
      hostBehaviour: everyForm((doc) => {
        const d = new Date(Date.parse(doc.timestamp) + 330 * 60000).toISOString();
        return { ...doc, timestamp: `${d.slice(0, -1)}+05:30` };
      }),
    },
  },
  {
    name: 'timestamps-microseconds',
    reading: 'event timestamps carry six fraction digits (…23.925000Z)',
    clause: 'RFC 3339 §5.6 (time-secfrac = "." 1*DIGIT)',
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/\.(\d{3})Z$/, '.$1000Z') })) },
  },
  {
    name: 'timestamps-whole-seconds',
    reading: 'event timestamps to the whole second (many events share one)',
    clause: 'RFC 3339 §5.6 (time-secfrac optional)',
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/\.\d+Z$/, 'Z') })) },
  },
  {
    name: 'regression-vs-baseline-as-decline',
    reading: 'eval.completed.regressionVsBaseline counts a decline as positive: baseline aggregate minus candidate (−scoreDelta)',
    clause: 'RFC 0081 §C (regressionVsBaseline?: no formula or sign given), docs/wire.md §6.1 (−1..1)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) =>
            next(
              type,
              type === 'eval.completed' && typeof p.regressionVsBaseline === 'number'
                ? { ...p, regressionVsBaseline: p.regressionVsBaseline === 0 ? 0 : -p.regressionVsBaseline }
                : p,
            );
        },
      },
    },
  },
  {
    name: 'agent-prompt-and-reasoning-events',
    reading: 'each bracket carries agent.prompt-resolved and agent.reasoned (hashes only) after invocation-started',
    clause: 'docs/wire.md §6.2 (started → prompt-resolved → (reasoning-delta* → reasoned)+ → calls → decided+)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => {
            next(type, p);
            if (type === 'agent.invocation-started') {
              next('agent.prompt-resolved', {
                agentId: p.agentId,
                invocationId: p.invocationId,
                promptHash: 'sha256:0000000000000000000000000000000000000000000',
              });
              next('agent.reasoned', { agentId: p.agentId, invocationId: p.invocationId });
            }
          };
        },
      },
    },
  },
  {
    name: 'tool-called-transport-native',
    reading: 'agent.tool-called carries transport "native"',
    clause: 'docs/wire.md §6.2 (agent.tool-called transport optional: mcp | http | native)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => next(type, type === 'agent.tool-called' ? { ...p, transport: 'native' } : p);
        },
      },
    },
  },
  {
    name: 'vendor-event-after-eval-completed',
    reading: 'a vendor event stands between eval.completed and run.completed',
    clause: 'RFC 0081 §C (eval.completed before run.completed; nothing else fixed), OpenWOP v2 events (unknown types)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => {
            next(type, p);
            if (type === 'eval.completed') next('acme.eval-archived', { archived: true });
          };
        },
      },
    },
  },
  {
    name: 'discovery-extensions-engine-version',
    reading: 'discovery carries a vendor extension, engineVersion 7 and implementation.url',
    clause: 'docs/wire.md §1.2 (extensions{"<org>.<name>":{…}}, engineVersion integer, implementation.url informational)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value)
          ? JSON.stringify({
              ...value,
              engineVersion: 7,
              extensions: { 'acme.trace': { sampling: 0.1 } },
              implementation: { ...(value.implementation as object), url: 'https://example.com/host' },
            })
          : undefined,
    },
  },
  {
    name: 'causation-ids',
    reading: "every agent.tool-returned names its agent.tool-called's eventId as causationId",
    clause: 'docs/wire.md §5.1 (causationId optional: the eventId of the event that caused this one)',
    options: {
      hostBehaviour: (() => {
        const calls = new Map<string, string>();
        const edit = (doc: RunEventDoc): RunEventDoc => {
          const p = doc.payload as Record<string, unknown>;
          if (doc.type === 'agent.tool-called') calls.set(`${doc.runId} ${String(p.callId)}`, doc.eventId);
          const cause = doc.type === 'agent.tool-returned' ? calls.get(`${doc.runId} ${String(p.callId)}`) : undefined;
          return cause === undefined ? doc : ({ ...doc, causationId: cause } as RunEventDoc);
        };
        return everyForm(edit);
      })(),
    },
  },
  {
    name: 'tasks-run-in-reverse',
    reading: "a suite's tasks run last task first (each task's trials in order)",
    clause: 'RFC 0081 §B, §C (each task a child invocation scored after its decision; no task order fixed), RFC 0244 §B',
    options: {
      engineBehaviour: {
        taskCeilingRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.taskCeilingRefusal(suite, facets);
          if (refusal === undefined) suite.tasks.reverse();
          return refusal;
        },
      },
    },
  },
  {
    name: 'trials-round-robin',
    reading: 'trials run round-robin across tasks: trial 0 of every task, then trial 1 of every task, …',
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex)",
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let blocks: Array<{ taskId: unknown; trialIndex: number; events: Array<[string, Record<string, unknown>]> }> = [];
          let current: Array<[string, Record<string, unknown>]> | undefined;
          let depth = 0;
          return (type, p) => {
            if (type === 'agent.invocation-started' && depth++ === 0 && current === undefined) current = [];
            if (type === 'agent.invocation-completed') depth--;
            if (current !== undefined) {
              current.push([type, p]);
              if (type === 'eval.scored') {
                blocks.push({ taskId: p.taskId, trialIndex: Number(p.trialIndex ?? 0), events: current });
                current = undefined;
              }
              return;
            }
            if (type === 'eval.completed') {
              const order = [...blocks].sort((a, b) => a.trialIndex - b.trialIndex);
              for (const block of order) for (const [t, q] of block.events) next(t, q);
              blocks = [];
            }
            next(type, p);
          };
        },
      },
    },
  },
  {
    name: 'tasks-order-alternates',
    reading: "every other eval run runs its suite's tasks last first (the order differs from run to run)",
    clause: 'RFC 0081 §B, §C (no task order fixed), RFC 0244 §B; RFC 0081 §A (reproducible scores, not a reproducible schedule)',
    options: (() => {
      let runs = 0;
      return {
        engineBehaviour: {
          taskCeilingRefusal: (
            suite: Parameters<typeof REFERENCE_PLAN_RULES.taskCeilingRefusal>[0],
            facets: Parameters<typeof REFERENCE_PLAN_RULES.taskCeilingRefusal>[1],
          ) => {
            const refusal = REFERENCE_PLAN_RULES.taskCeilingRefusal(suite, facets);
            if (refusal === undefined && runs++ % 2 === 1) suite.tasks.reverse();
            return refusal;
          },
        },
      };
    })(),
  },
  {
    name: 'trial-order-alternates',
    reading: "a task's trials run forward, the next task's trials last first, and so on",
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex)",
    options: (() => {
      let calls = 0;
      return {
        engineBehaviour: {
          trialOrder: (count: number) => {
            const order = Array.from({ length: count }, (_, i) => i);
            return calls++ % 2 === 1 ? order.reverse() : order;
          },
        },
      };
    })(),
  },
  {
    name: 'discovery-extra-fixture-ids',
    reading: 'discovery lists fixture ids the harness does not know (upstream workflow stubs, a future eval suite) first',
    clause: 'docs/wire.md §1.2 (fixtures: unknown ids must be tolerated)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value) && Array.isArray(value.fixtures)
          ? JSON.stringify({ ...value, fixtures: ['noop-workflow', 'conformance-eval-future-suite', ...value.fixtures] })
          : undefined,
    },
  },
  {
    name: 'discovery-newer-minor-preferred',
    reading: 'discovery offers protocolVersions ["2.0","2.3"], preferredVersion "2.3"; answers carry OpenWOP-Version 2.3',
    clause: 'docs/wire.md §1.1, §1.2 (a newer minor of 2 is still major 2)',
    options: {},
    wire: { responseVersion: '2.3' },
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value)
          ? JSON.stringify({ ...value, protocolVersions: ['2.0', '2.3'], preferredVersion: '2.3' })
          : undefined,
    },
  },
  {
    name: 'discovery-two-signing-keys',
    reading: 'discovery publishes a second (retired) signing key before the current one',
    clause: 'docs/wire.md §1.2, §12.4 (signingKeys[]: the public keys for bundle signatures)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value) && Array.isArray(value.signingKeys)
          ? JSON.stringify({
              ...value,
              signingKeys: [
                { keyId: 'retired-2025', alg: 'ed25519', publicKey: 'Jw4rVt2y1mBfJp0tWqk3hYh8m8zC5C0fQx1X2bq8v0E', use: 'certification-bundle' },
                ...value.signingKeys,
              ],
            })
          : undefined,
    },
  },
];
