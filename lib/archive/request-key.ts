// How a request is named in the archive, the same on both sides of a replay: the recorder names
// each request the harness sent, the replay host names each request it receives, and an archived
// answer is served to the request of the same name (docs/auditing.md "Replaying a certification").
//
// The name is the method, the path with its query, the headers the harness chose and the body,
// every one of them after redaction, so no secret enters it. Headers count because some legs
// differ from others in a header alone (a missing OpenWOP-Version, another Accept); the ones the
// HTTP stack adds (Host, Connection, Content-Length) do not, since the client never chose them.
// The key a request carries is named by the role it plays, never by its value: the replay host
// holds keys of its own, which must name the same roles as the recorded host's.

import type { Redactor } from '../redact.ts';

/** Headers the HTTP stack writes: absent from the harness's own header map, present on the wire. */
const STACK_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** The API keys of one certification, by the role each plays. */
export interface KeyRoles {
  tenantA?: string;
  tenantB?: string;
}

/** What a request's Authorization header says, in words that carry no secret. */
export function credentialOf(authorization: string | undefined, roles: KeyRoles, redactor: Redactor): string {
  if (authorization === undefined) return 'none';
  if (roles.tenantA && authorization === `Bearer ${roles.tenantA}`) return 'Bearer <tenant-a>';
  if (roles.tenantB && authorization === `Bearer ${roles.tenantB}`) return 'Bearer <tenant-b>';
  return redactor.text(authorization);
}

/** A request as the archive keeps it: redacted, the Authorization value replaced by its role. */
export interface ArchivedRequest {
  method: string;
  /** Path and query, as sent (redacted). */
  target: string;
  /** Lower-case names, sorted; the stack's own headers left out. */
  headers: Array<[name: string, value: string]>;
  body: string;
}

/** The archived form of a request, from its parts as sent or as received. */
export function archivedRequest(
  method: string,
  target: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  roles: KeyRoles,
  redactor: Redactor,
): ArchivedRequest {
  const kept: Array<[string, string]> = [];
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (rawValue === undefined || STACK_HEADERS.has(name)) continue;
    const value = Array.isArray(rawValue) ? rawValue.join(', ') : rawValue;
    kept.push([name, name === 'authorization' ? credentialOf(value, roles, redactor) : redactor.text(value)]);
  }
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { method: method.toUpperCase(), target: redactor.text(target), headers: kept, body: redactor.text(body) };
}

/** The name an archived answer is looked up by. */
export function requestKey(request: ArchivedRequest): string {
  return JSON.stringify([request.method, request.target, request.headers, request.body]);
}

/** A request in one line, for a replay failure that names it. */
export function describeRequest(request: ArchivedRequest): string {
  const body = request.body === '' ? '' : ` with a ${Buffer.byteLength(request.body)}-byte body ${JSON.stringify(request.body.slice(0, 120))}`;
  const auth = request.headers.find(([name]) => name === 'authorization')?.[1] ?? 'no Authorization';
  return `${request.method} ${request.target} (${auth})${body}`;
}
