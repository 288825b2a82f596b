// Round honest7: honest variants in areas rounds 5 and 6 did not take: a facet with fewer optional
// members, other legal discovery shapes, tenant B's key in other legal forms, the Authorization
// scheme's casing, and runs near the documented waits. Scratch only.
import type { IncomingMessage } from 'node:http';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { BytesChoice } from './bytes-proxy.ts';
import { isObj, type Variant } from './honest5-helpers.ts';

export { HONEST } from './honest5-helpers.ts';
export interface Variant7 extends Variant {
  /** The keys the harness is given instead of the host's (the proxy maps them back). */
  keys?: { a?: string; b?: string };
}

const discovery = (edit: (d: Record<string, unknown>) => Record<string, unknown>): ReferenceHostOptions => ({ hostBehaviour: { discovery: edit } });

const family = { status: 'stable', since: '2.0', witness: 'claims-check' };

/** The proxy maps the harness's key `given` for tenant B to the host's `real` one. */
function keyMapped(given: string, real: string): BytesChoice {
  return {
    request: (req: IncomingMessage) => {
      const auth = req.headers.authorization;
      if (typeof auth === 'string' && auth.endsWith(` ${given}`)) req.headers.authorization = `Bearer ${real}`;
    },
  };
}

/** The run id a path names (`/runs/{projected}/…`), decoded from its `~HH` projection. */
function runIdOf(path: string): string | undefined {
  const m = /^\/runs\/([^/:]+)/.exec(path);
  if (!m) return undefined;
  return decodeURIComponent(m[1].replace(/~([0-9A-Fa-f]{2})/g, '%$1'));
}

function lateStart(ms: number): BytesChoice {
  const created = new Map<string, number>();
  const startOf = (ctx: { url: URL }) => {
    const id = runIdOf(ctx.url.pathname);
    return id === undefined ? 0 : (created.get(id) ?? 0) + ms;
  };
  return {
    json: (value, ctx) => {
      if (ctx.req.method === 'POST' && ctx.url.pathname === '/runs' && ctx.status === 201 && isObj(value) && typeof value.runId === 'string') {
        created.set(value.runId, Date.now());
        return JSON.stringify({ ...value, status: 'pending' });
      }
      if (Date.now() >= startOf(ctx) || !isObj(value)) return undefined;
      if (ctx.url.pathname.endsWith('/events/poll') && ctx.status === 200)
        return JSON.stringify({ ...value, events: [], lastSequence: -1, status: 'pending', isTerminal: false });
      if (/^\/runs\/[^/]+$/.test(ctx.url.pathname) && ctx.status === 200) return JSON.stringify({ ...value, status: 'pending' });
      return undefined;
    },
    sseHoldUntil: startOf,
  };
}

export const VARIANTS: Variant7[] = [
  // (1) a facet advertising fewer optional members: each one off, then all together.
  {
    name: 'facet-no-trajectory',
    reading: 'agents.evalSuite without trajectory',
    clause: 'RFC 0244 §G; CONTRACT §1',
    options: { evalSuite: { trajectory: false } },
  },
  { name: 'facet-no-trials', reading: 'agents.evalSuite without trials', clause: 'RFC 0244 §G; CONTRACT §1', options: { evalSuite: { trials: false } } },
  {
    name: 'facet-no-fixture-matching',
    reading: 'agents.evalSuite without fixtureMatching (and so without recordedFixtures, RFC 0252 §A)',
    clause: 'RFC 0244 §G; RFC 0252',
    options: { evalSuite: { fixtureMatching: false, recordedFixtures: false } },
  },
  {
    name: 'facet-no-regression-verdict',
    reading: 'agents.evalSuite without regressionVerdict',
    clause: 'RFC 0244 §F, §G',
    options: { evalSuite: { regressionVerdict: false } },
  },
  {
    name: 'facet-no-recorded-fixtures',
    reading: 'agents.evalSuite without recordedFixtures',
    clause: 'RFC 0252 §A',
    options: { evalSuite: { recordedFixtures: false } },
  },
  {
    name: 'facet-no-ceilings',
    reading: 'agents.evalSuite without maxTasksPerSuite and maxCostUsdPerSuite',
    clause: 'RFC 0081 §D (optional ceilings)',
    options: { evalSuite: { maxTasksPerSuite: false, maxCostUsdPerSuite: false } },
  },
  {
    name: 'facet-minimal',
    reading: 'agents.evalSuite {modes: ["golden"]} and nothing else',
    clause: 'RFC 0081 §D; RFC 0244 §G',
    options: {
      evalSuite: {
        modes: ['golden'],
        maxTasksPerSuite: false,
        maxCostUsdPerSuite: false,
        trajectory: false,
        trials: false,
        fixtureMatching: false,
        regressionVerdict: false,
        recordedFixtures: false,
      },
    },
  },
  {
    name: 'facet-members-false-explicit',
    reading: 'trajectory, fixtureMatching, regressionVerdict, recordedFixtures, fixtureErrors served as explicit false (not left out); the engine without them',
    clause: 'capabilities schema $defs.evalSuiteFacet (each a boolean); RFC 0244 §G',
    options: {
      evalSuite: { trajectory: false, fixtureMatching: false, regressionVerdict: false, recordedFixtures: false },
      hostBehaviour: {
        discovery: (d) => {
          const agents = d.agents as Record<string, unknown>;
          const facet = agents.evalSuite as Record<string, unknown>;
          return {
            ...d,
            agents: {
              ...agents,
              evalSuite: { ...facet, trajectory: false, fixtureMatching: false, regressionVerdict: false, recordedFixtures: false, fixtureErrors: false },
            },
          };
        },
      },
    },
  },
  {
    name: 'facet-trajectory-false-explicit',
    reading: 'trajectory served as explicit false; the engine without it',
    clause: 'capabilities schema $defs.evalSuiteFacet; RFC 0244 §G',
    options: {
      evalSuite: { trajectory: false },
      hostBehaviour: {
        discovery: (d) => {
          const agents = d.agents as Record<string, unknown>;
          return { ...d, agents: { ...agents, evalSuite: { ...(agents.evalSuite as object), trajectory: false } } };
        },
      },
    },
  },
  {
    name: 'facet-modes-empty',
    reading: 'agents.evalSuite.modes [] (the facet claimed, no mode advertised: shape only)',
    clause: 'capabilities schema $defs.evalSuiteFacet ("Absent modes: shape only"); RFC 0081 §D',
    options: { evalSuite: { modes: [] } },
  },
  {
    name: 'facet-modes-absent',
    reading: 'agents.evalSuite without modes (shape only); the engine runs no mode',
    clause: 'capabilities schema $defs.evalSuiteFacet ("Absent modes: shape only, no mode advertised")',
    options: {
      evalSuite: { modes: [] },
      hostBehaviour: {
        discovery: (d) => {
          const agents = d.agents as Record<string, unknown>;
          const { modes: _, ...facet } = agents.evalSuite as Record<string, unknown>;
          return { ...d, agents: { ...agents, evalSuite: facet } };
        },
      },
    },
  },
  // (2) other legal discovery shapes.
  {
    name: 'discovery-dual-stack-v1-preferred',
    reading: 'protocolVersions ["1.11","2.0"], preferredVersion "1.11" (a dual-stack host, the example docs/wire.md §1.2 gives)',
    clause: 'docs/wire.md §1.1, §1.2',
    options: discovery((d) => ({ ...d, protocolVersions: ['1.11', '2.0'], preferredVersion: '1.11' })),
  },
  {
    name: 'discovery-extra-families',
    reading: 'memory, runList, webhooks, interrupt and idempotency family records, testing, minClientVersion 2.0, engineVersion',
    clause: 'docs/wire.md §1.2 (capability family records; a present family is claimed)',
    options: discovery((d) => ({
      ...d,
      minClientVersion: '2.0',
      engineVersion: 3,
      testing: { mockProviders: ['acme-mock'], testKeyPrefix: 'ow2k_' },
      memory: family,
      runList: family,
      webhooks: { status: 'experimental', since: '2.0', until: '3.0', witness: 'seam-gated' },
      interrupt: family,
      idempotency: family,
    })),
  },
  {
    name: 'discovery-conformance-extras',
    reading: 'conformance.mockAgent and conformance.certificationBundleUrl beside the seams profiles',
    clause: 'docs/wire.md §1.2 (conformance{mockAgent?, certificationBundleUrl?, …})',
    options: discovery((d) => ({
      ...d,
      conformance: { ...(d.conformance as object), mockAgent: true, certificationBundleUrl: 'https://host.example/bundle.json' },
    })),
  },
  {
    name: 'discovery-agents-family-extras',
    reading: 'the agents family record with other facets beside evalSuite and a later since',
    clause: 'docs/wire.md §1.2, §2 (family record members; facets other than evalSuite)',
    options: discovery((d) => {
      const agents = d.agents as Record<string, unknown>;
      return { ...d, agents: { ...agents, since: '2.1' } };
    }),
  },
  {
    name: 'discovery-future-major-offered',
    reading: 'protocolVersions ["2.0","3.0"], preferredVersion "3.0"; a request naming 2.0 is answered in 2.0',
    clause: 'docs/wire.md §1.1, §1.2 (a host that speaks several majors; the request names its major)',
    options: discovery((d) => ({ ...d, protocolVersions: ['2.0', '3.0'], preferredVersion: '3.0' })),
  },
  {
    name: 'discovery-agents-family-deprecated',
    reading: 'the agents family record deprecated, with until',
    clause: 'docs/wire.md §1.2 (status stable | experimental | deprecated; until for deprecated)',
    options: discovery((d) => ({ ...d, agents: { ...(d.agents as object), status: 'deprecated', since: '2.0', until: '3.0' } })),
  },
  {
    name: 'facet-max-trials-one',
    reading: 'agents.evalSuite.trials {maxTrials: 1}: the member present, one trial a task',
    clause: 'RFC 0244 §B, §G (maxTrials the host bound)',
    options: { evalSuite: { trials: { maxTrials: 1 } } },
  },
  {
    name: 'facet-modes-without-golden',
    reading: 'agents.evalSuite.modes ["rubric","regression"]: no golden',
    clause: 'RFC 0081 §D (a host advertises the modes it implements)',
    options: { evalSuite: { modes: ['rubric', 'regression'] } },
  },
  {
    name: 'discovery-no-fixtures-member',
    reading: 'discovery has no fixtures member; the seams are mounted, so the harness seeds each fixture itself',
    clause: 'docs/wire.md §1.2 (fixtures optional); docs/certifying.md (with the seams mounted, the harness seeds the fixture)',
    options: discovery((d) => {
      const { fixtures: _, ...rest } = d;
      return rest;
    }),
  },
  {
    name: 'discovery-fixtures-empty',
    reading: 'discovery fixtures [] (nothing pre-seeded); the seams are mounted',
    clause: 'docs/wire.md §1.2; docs/certifying.md',
    options: discovery((d) => ({ ...d, fixtures: [] })),
  },
  {
    name: 'tenant-ids-other-form',
    reading: 'tenant ids `Acme.Prod_A~1` and `anon:b-2.x` (run ids carry them, projected in paths)',
    clause: 'docs/wire.md §1.3 (tenantId grammar)',
    options: { tenants: { a: { tenantId: 'Acme.Prod_A~1' }, b: { tenantId: 'anon:b-2.x' } } },
  },
  // (3) tenant B's key in other forms.
  {
    name: 'tenant-b-key-long',
    reading: "tenant B's key is 600 b64token characters",
    clause: 'RFC 6750 §2.1 (b64token); docs/wire.md §1.1',
    options: { tenants: { b: { apiKey: `ow2k_${'Zq9-'.repeat(150)}` } } },
  },
  {
    name: 'tenant-b-key-b64token-punctuation',
    reading: "tenant B's key uses every b64token character: . _ ~ + / - and = padding",
    clause: 'RFC 6750 §2.1 (b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=")',
    options: { tenants: { b: { apiKey: 'tB.~+/_-x9Z/k+Q==' } } },
  },
  {
    name: 'tenant-b-key-extends-a',
    reading: "tenant B's key is tenant A's key with more characters after it",
    clause: 'docs/wire.md §1.1 (any api key)',
    options: { tenants: { b: { apiKey: 'ow2k_tenant_a_dev_key_2' } } },
  },
  {
    name: 'tenant-b-key-short',
    reading: "tenant B's key is 3 characters (the harness sends `k7Q`)",
    clause: 'RFC 6750 §2.1 (b64token, no length fixed)',
    options: {},
    keys: { b: 'k7Q' },
    bytes: keyMapped('k7Q', 'ow2k_tenant_b_dev_key'),
  },
  // (4) the Authorization scheme's casing.
  {
    name: 'auth-scheme-casing',
    reading: 'the host reads the scheme as `bEaReR` and answers 401 with `WWW-Authenticate: BEARER realm="openwop"`',
    clause: 'RFC 9110 §11.1 (auth-scheme case-insensitive)',
    options: {},
    bytes: {
      request: (req) => {
        const auth = req.headers.authorization;
        if (typeof auth === 'string') req.headers.authorization = auth.replace(/^Bearer /, 'bEaReR ');
      },
      headers: (h) => {
        const out = { ...h };
        for (const k of Object.keys(out)) if (k.toLowerCase() === 'www-authenticate') out[k] = 'BEARER realm="openwop"';
        return out;
      },
    },
  },
  // (5) runs near the documented waits.
  {
    name: 'trials-paced-150ms',
    reading: '150 ms between trials (the 50-task ceiling suite takes about 8 s)',
    clause: 'CONTRACT §6 (no run time fixed); docs/certifying.md (30 s wait)',
    options: { paceMs: 150 },
  },
  {
    name: 'trials-paced-450ms',
    reading: '450 ms between trials (the 50-task ceiling suite takes about 23 s, under the 30 s wait)',
    clause: 'CONTRACT §6 (no run time fixed); docs/certifying.md (30 s wait)',
    options: { paceMs: 450 },
  },
  {
    name: 'first-event-after-12s',
    reading: 'create answers pending; the first event of each eval run comes 12 s later (progress timeout 20 s)',
    clause: 'docs/wire.md §4, §5.2; docs/certifying.md (20 s progress timeout)',
    options: {},
    bytes: lateStart(12000),
  },
];
export { isObj };
