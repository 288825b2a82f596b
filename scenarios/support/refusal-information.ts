// Uniform refusals compared as information (RFC 0081 §F cross-tenant, RFC 0252 §C and Security):
// a refusal of another tenant's id must tell the caller nothing an unknown id's refusal does not.
// The same status and error code are not enough: a message saying "belongs to another tenant"
// tells. Bytes may still differ per response (a request id, a timestamp, the supplied id quoted
// back where that is allowed), so the per-response noise is calibrated first: two refusals of two
// unknown ids, compared member by member and, inside strings, word by word. What differs between
// them is noise and masked; everything else is the information an unknown id gets, and the foreign
// refusal must carry exactly it.

import { isJsonObject, jsonDeepEqual } from '../../lib/json-value.ts';

/**
 * A string's words and what separates them: "no run t/x-1 (request 7)" is `no`, ` `, `run`, ` `,
 * `t/x-1`, ` `, `(`, `request`, ` `, `7`, `)`. An id stays one word however many `-`, `_` or `/`
 * its random part happens to hold, so two unknown ids' refusals keep one word count.
 */
function tokens(text: string): string[] {
  return text.split(/(\s+|[(),;:"'[\]{}])/).filter((token) => token.length > 0);
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Where `foreign` carries information the two unknown-id refusals `a` and `b` do not: one line each. */
function differences(a: unknown, b: unknown, foreign: unknown, path: string, out: string[]): void {
  if (typeof a === 'string' && typeof b === 'string') {
    if (typeof foreign !== 'string') {
      if (a === b) out.push(`${path}: ${JSON.stringify(a)} for an unknown id, ${JSON.stringify(foreign)} for the foreign one`);
      return;
    }
    const ta = tokens(a);
    const tb = tokens(b);
    if (ta.length === tb.length) {
      // Word by word: a word the two unknowns share is information, a word that differs is noise.
      const tf = tokens(foreign);
      const fixed = ta.map((token, i) => token === tb[i]);
      if (tf.length !== ta.length || fixed.some((isFixed, i) => isFixed && tf[i] !== ta[i]))
        out.push(
          `${path}: ${JSON.stringify(foreign)} where an unknown id gets ${JSON.stringify(a)} (noise masked: the words differing from ${JSON.stringify(b)})`,
        );
      return;
    }
    // The noise changes the word count: only the common head and tail are information.
    const head = commonPrefix(a, b);
    const tail = commonPrefix([...a.slice(head)].reverse().join(''), [...b.slice(head)].reverse().join(''));
    if (!foreign.startsWith(a.slice(0, head)) || !foreign.endsWith(a.slice(a.length - tail)))
      out.push(`${path}: ${JSON.stringify(foreign)} does not keep the head and tail every unknown id's refusal has`);
    return;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    if (!isJsonObject(foreign)) {
      out.push(`${path}: an object for an unknown id, ${JSON.stringify(foreign)} for the foreign one`);
      return;
    }
    const shared = Object.keys(a).filter((key) => key in b);
    const noise = new Set([...Object.keys(a), ...Object.keys(b)].filter((key) => !shared.includes(key)));
    for (const key of shared) differences(a[key], b[key], foreign[key], `${path}.${key}`, out);
    for (const key of Object.keys(foreign))
      if (!shared.includes(key) && !noise.has(key)) out.push(`${path}.${key}: present for the foreign id only (${JSON.stringify(foreign[key])})`);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    if (!Array.isArray(foreign) || foreign.length !== a.length) {
      out.push(`${path}: ${JSON.stringify(foreign)} where an unknown id gets an array of ${a.length}`);
      return;
    }
    for (const [i, item] of a.entries()) differences(item, b[i], foreign[i], `${path}[${i}]`, out);
    return;
  }
  // Scalars (and shapes the two unknowns disagree on): equal is information, different is noise.
  if (jsonDeepEqual(a, b) && !jsonDeepEqual(foreign, a)) out.push(`${path}: ${JSON.stringify(foreign)} where an unknown id gets ${JSON.stringify(a)}`);
}

/**
 * How the foreign refusal's body differs from the information two unknown-id refusals share:
 * empty when it tells nothing more. `unknownA` and `unknownB` are bodies of refusals of two
 * different unknown ids, taken the same way as `foreign`.
 */
export function informationBeyondUnknown(unknownA: unknown, unknownB: unknown, foreign: unknown): string[] {
  const out: string[] = [];
  differences(unknownA, unknownB, foreign, '$', out);
  return out;
}
