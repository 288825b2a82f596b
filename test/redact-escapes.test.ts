// The redactor reads escapes (`\u0061`, `%61`) by counting the backslashes before a `\u`
// (lib/redact.ts), where it used a lookbehind at the head of its pattern, which cost 30 ms on the
// archive of `npm start`, and tells a text that holds no secret by one alternation of every form
// where it searched for each form in turn. The two must agree on every text: held here against the
// lookbehind reading, copied as it was, on fixed texts and on 20,000 texts drawn with a fixed seed
// from the characters that make or break an escape.

import { describe, expect, it } from 'vitest';
import { MIN_ANYWHERE, REDACTED, Redactor } from '../lib/redact.ts';

const TOKEN_CHAR = /[A-Za-z0-9\-._~+/=]/;

/** The redactor as it was before the backslashes were counted (lib/redact.ts at 31df611), the reference. */
function lookbehindRedactor(secrets: string[], decode = true): (text: string) => string {
  const SPELLED = /(?<!\\)(?:\\\\)*\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2}/;
  const SPELLED_ALL = /(?<=(?:^|[^\\])(?:\\\\)*)\\u([0-9a-fA-F]{4})|%([0-9a-fA-F]{2})/g;
  const spelledOut = (whole: string, json: string | undefined, percent: string | undefined): string => {
    const c = String.fromCharCode(Number.parseInt(json ?? percent ?? '', 16));
    return /[A-Za-z0-9\-._~]/.test(c) || (json !== undefined && /[+/=]/.test(c)) ? c : whole;
  };
  const xmlEscape = (text: string): string =>
    text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
  const formsOf = (secret: string): string[] => {
    const forms = new Set<string>([secret, xmlEscape(secret), JSON.stringify(secret).slice(1, -1)]);
    try {
      forms.add(encodeURIComponent(secret));
    } catch {}
    return [...forms].filter((form) => form.length > 0);
  };
  const replaceWholeTokens = (text: string, form: string): string => {
    let out = '';
    let from = 0;
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      if (at < from) continue;
      const before = at > 0 ? text[at - 1]! : '';
      const after = at + form.length < text.length ? text[at + form.length]! : '';
      if (TOKEN_CHAR.test(before) || TOKEN_CHAR.test(after)) continue;
      out += text.slice(from, at) + REDACTED;
      from = at + form.length;
    }
    return out + text.slice(from);
  };
  const sorted = [...new Set(secrets.filter((s) => s !== ''))].sort((a, b) => b.length - a.length);
  const forms = sorted.flatMap(formsOf);
  const replace = (text: string): string => {
    let out = text;
    for (const form of forms) {
      if (!out.includes(form)) continue;
      out = form.length >= MIN_ANYWHERE ? out.split(form).join(REDACTED) : replaceWholeTokens(out, form);
    }
    return out;
  };
  return (text) => {
    const out = replace(text);
    if (!decode || sorted.length === 0 || !SPELLED.test(out)) return out;
    const decoded = out.replace(SPELLED_ALL, spelledOut);
    const redacted = replace(decoded);
    return redacted === decoded ? out : redacted;
  };
}

/** A small deterministic generator (mulberry32). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The fourth set from the end makes replacing not idempotent: `qqqqqqqq]!!` becomes `[redacted]]!!`, in which
// the longer secret then stands; a text with an escape is replaced twice, as before. The last three
// hold the characters a regular expression gives a meaning to (the redactor finds every form with one).
const SECRET_SETS = [
  ['ab'],
  ['a'],
  ['abcdefgh'],
  ['ab/c=d', 'a%b'],
  ['k', 'abcdefgh-ijk'],
  ['"\\u'],
  ['acted]xy', 'x'],
  ['edacted]]!!', 'qqqqqqqq'],
  ['a.b*c+d?e'],
  ['(x)|[y]{2}^$\\/z'],
  ['\n-\u2028'],
];

describe('the escapes a secret can be spelled in, read without a lookbehind', () => {
  it('agree with the lookbehind reading on fixed texts', () => {
    const texts = [
      '\\u0061\\u0062',
      '\\\\u0061\\u0062',
      '\\\\\\u0061\\u0062',
      '\\\\\\\\u0061b',
      '%61%62',
      '%2561b',
      'x%6',
      '\\u006',
      '\\u0061',
      'a\\u0062 c',
      '\\\\u0061\\\\u0062',
      '"\\u005c\\u0075',
      '%2F%2f%41',
      // Characters beside the hex digits, and ones a letter's case bit would turn into a digit.
      '%6g %g6 %:1 %@1 %`1 %/1 %G1 \\u00g1 \\u006: \\u006@ \\u006`',
      '%\u0016\u0011 \\u\u0010\u0010\u0016\u0011 %61',
      '%%61 \\u\\u0061 %\\u0061 \\u%61',
      '[redacted]xy \\u0061',
      'acted]xy %20',
      'ab/c=d \\u002f',
      'qqqqqqqq]!! %20',
      'qqqqqqqq]!!',
      // The characters a pattern gives a meaning to, in secrets and beside them.
      'x a.b*c+d?e y',
      'aXb*c+d?e',
      'q (x)|[y]{2}^$\\/z q',
      '(x)|[y]{2}^$/z',
      'x)|[y]{2}^$\\/z',
      ' \n-\u2028 ',
      '\n-',
    ];
    for (const secrets of SECRET_SETS) {
      const reference = lookbehindRedactor(secrets);
      const redactor = new Redactor(secrets);
      for (const text of texts) expect(redactor.text(text), `${JSON.stringify(secrets)} ${JSON.stringify(text)}`).toBe(reference(text));
    }
  });

  it('agree with the lookbehind reading on 20,000 texts drawn with a fixed seed', () => {
    const random = mulberry32(0x5eed);
    const pieces = ['\\', '\\', 'u', '00', '6', '1', '2', '%', 'a', 'b', 'F', 'f', ' ', '"', '/', '=', 'c', 'd', 'x', '[redacted]'];
    // Whole escapes of the secrets' characters, so that some texts spell a secret only through them.
    pieces.push('\\u0061', '%61', '\\u0062', '%62', '\\u002f', '%2F', '\\u005c');
    let changed = 0;
    let throughEscapes = 0;
    for (let i = 0; i < 20_000; i++) {
      const secrets = SECRET_SETS[i % SECRET_SETS.length]!;
      let text = '';
      const length = 1 + Math.floor(random() * 24);
      for (let j = 0; j < length; j++) text += pieces[Math.floor(random() * pieces.length)];
      const expected = lookbehindRedactor(secrets)(text);
      if (expected !== text) changed++;
      if (expected !== lookbehindRedactor(secrets, false)(text)) throughEscapes++;
      expect(new Redactor(secrets).text(text), `${JSON.stringify(secrets)} ${JSON.stringify(text)}`).toBe(expected);
    }
    // The draw reaches texts the redactor changes, some of them only through an escape.
    expect(changed).toBeGreaterThan(400);
    expect(throughEscapes).toBeGreaterThan(100);
  });
});
