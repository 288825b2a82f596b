// Whether a refusal names a field. CONTRACT §2 (and RFC 0244 §G, "naming the field") wants the
// `400 validation_error` to name the field it refuses. The error envelope
// (schemas/v2/error-envelope.schema.json) is `{error, message, details?}`, and `details` is open,
// so a host can name a field in four places, and each is accepted:
//   - a `details` string that is a path to it: `modes`, `trials.count`, `suite.trials.count`,
//     the JSON pointer `/trials/count`, or a path to an item of it (`/modes/1`);
//   - a `details` array that is such a path, item by item (`"loc": ["trials", "count"]`);
//   - a `details` key that is such a path (`{"modes": ["adversarial"]}`);
//   - the field, whole, in `message` (`"modes: …"`), once every value the request itself sent
//     (the evalSuiteRef, the agentId) is taken out, so an echo of the request never counts.
// Anything else in the body (an echoed suite id that happens to contain the word) does not.

/** The segments of a dotted path or a JSON pointer: `a.b[0]` and `/a/b/0` are both a, b, 0. */
function segments(path: string): string[] {
  return path.split(/[./[\]]+/).filter((segment) => segment.length > 0);
}

const INDEX = /^[0-9]+$/;

/**
 * `path` ends with the segments of `field`, ignoring item indices: `tasks[0].fixtures.toolResponses[1].args`
 * names `toolResponses.args` (a field of the items of an array), `/modes/1` names `modes`.
 */
function pathNames(path: string, field: string): boolean {
  const parts = segments(path).filter((segment) => !INDEX.test(segment));
  const want = segments(field);
  if (want.length === 0 || parts.length < want.length) return false;
  return want.every((segment, i) => parts[parts.length - want.length + i] === segment);
}

/** Where in `details` the field is named: `details`, `a details path array`, or nowhere. */
function detailsName(value: unknown, field: string, echoed: readonly string[]): Naming | undefined {
  if (typeof value === 'string') return !echoed.includes(value) && pathNames(value, field) ? 'details' : undefined;
  if (Array.isArray(value)) {
    // A path array (`loc: ["body", "trials", "count"]`, `path: ["modes", 1]`) names the field
    // as a whole; its items are tried one by one too.
    const isPath = value.length > 0 && value.every((item) => (typeof item === 'string' && item.length > 0) || Number.isInteger(item));
    if (isPath && pathNames(value.map(String).join('.'), field)) return 'a details path array';
    for (const item of value) {
      const found = detailsName(item, field, echoed);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (pathNames(key, field)) return 'details';
      const found = detailsName(item, field, echoed);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function messageNames(message: string, field: string, echoed: readonly string[]): boolean {
  let text = message;
  for (const value of echoed) if (value.length > 0) text = text.split(value).join(' ');
  // The dotted form may index an array on the way (`toolResponses[0].args`), the pointer form
  // may carry an item index (`/toolResponses/0/args`).
  const parts = segments(field).map(escapeRegExp);
  const dotted = parts.join('(?:\\[[0-9]+\\])?\\.');
  const pointer = `/${parts.join('(?:/[0-9]+)?/')}`;
  // A pointer's leading `/` is its own boundary, so it may end a longer pointer (`/tasks/0/…`).
  return new RegExp(`(?<![A-Za-z0-9_-])${dotted}(?![A-Za-z0-9_-])`).test(text) || new RegExp(`${pointer}(?![A-Za-z0-9_-])`).test(text);
}

/** Where a refusal names a field. */
export type Naming = 'details' | 'a details path array' | 'message';

/**
 * Where the refusal body names `field`, in `details` or in `message`, or undefined when it does
 * not. `echoed` lists the values the request sent, which a message may quote without naming anything.
 */
export function refusalNaming(body: unknown, field: string, echoed: readonly string[] = []): Naming | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { message, details } = body as { message?: unknown; details?: unknown };
  const inDetails = details === undefined ? undefined : detailsName(details, field, echoed);
  if (inDetails !== undefined) return inDetails;
  return typeof message === 'string' && messageNames(message, field, echoed) ? 'message' : undefined;
}

/** The refusal body names `field` somewhere (see refusalNaming). */
export function refusalNamesField(body: unknown, field: string, echoed: readonly string[] = []): boolean {
  return refusalNaming(body, field, echoed) !== undefined;
}
