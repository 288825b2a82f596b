// Differential check (scratch): matchRoute as on main against this branch's, on requests drawn from the route table.
import { matchRoute } from '../lib/routes/exchanges.ts';
import { ROUTES, type Route } from '../lib/routes/table.ts';

function oldMatch(method: string, segments: readonly string[], headers: Record<string, string>, routes: readonly Route[] = ROUTES): Route | undefined {
  const parts = (t: string) => t.split('/').filter(Boolean);
  const fitsSeg = (part: string, segment: string) => {
    if (!part.startsWith('{')) return part === segment;
    const suffix = part.slice(part.indexOf('}') + 1);
    return segment.length > suffix.length && segment.endsWith(suffix);
  };
  const fits = routes.filter((route) => {
    const p = parts(route.template);
    return route.method === method && p.length === segments.length && p.every((part, i) => fitsSeg(part, segments[i]!));
  });
  return fits.find((r) => r.requestHeader !== undefined && headers[r.requestHeader] !== undefined) ?? fits.find((r) => r.requestHeader === undefined);
}
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const words = ['runs', 'events', 'poll', 'cancel', 'eval-summary', 'conformance', 'seams', 'x~2Fy', 'abc:fork', ':fork', 'a:pause', '', 'holds', 'release', '.well-known', 'openwop'];
const headerNames = [...new Set(ROUTES.flatMap((r) => (r.requestHeader ? [r.requestHeader] : [])))];
let n = 0, matched = 0;
for (let i = 0; i < 100000; i++) {
  const route = pick(ROUTES);
  let segments = route.template.split('/').filter(Boolean).map((p) => (p.startsWith('{') ? `id${Math.floor(rnd() * 3)}${p.slice(p.indexOf('}') + 1)}` : p));
  if (rnd() < 0.4) segments = segments.map((s) => (rnd() < 0.3 ? pick(words) : s));
  if (rnd() < 0.1) segments.push(pick(words));
  if (rnd() < 0.1) segments.pop();
  const method = rnd() < 0.8 ? route.method : pick(['GET', 'POST', 'PUT', 'DELETE']);
  const headers: Record<string, string> = {};
  for (const h of headerNames) if (rnd() < 0.5) headers[h] = '1';
  const a = oldMatch(method, segments, headers), b = matchRoute(method, segments, headers);
  if (a !== b) throw new Error(`differs: ${method} ${segments.join('/')} ${JSON.stringify(headers)}`);
  n++;
  if (a) matched++;
}
console.log(`${n} requests, the same route each time; ${matched} matched one`);
