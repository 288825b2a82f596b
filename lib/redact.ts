// The one redactor. A run is given secrets — tenant A's API key, tenant B's, the signing key
// material — and a hostile host can echo any of them back (an error body quoting the
// Authorization header it received, an implementation name, a discovery member). Every text the
// harness lets out goes through one `Redactor` that knows every secret of the run: the rows and
// their details, the terminal lines, the JSON report, the JUnit file, the bundle (before it is
// signed, so the signature covers what is published) and the client's transport errors.
// docs/certifying.md "Certifying your host": no API key is ever written to the terminal, the JSON report,
// the JUnit file or the bundle.
//
// One rule for every secret:
// - A secret of MIN_ANYWHERE characters or more is replaced wherever it occurs, in each form a
//   text can carry it: as sent, percent-encoded, escaped inside a JSON string, escaped in XML,
//   and with any of its characters spelled as a `\u0061` or `%61` escape.
// - A shorter secret is replaced only where it stands as a whole token: not preceded or
//   followed by a character of an RFC 6750 §2.1 `b64token` (letters, digits, `-._~+/`) or `=`.
//   So a one-letter key `k` is still taken out of `Bearer k`, but `/.well-known/openwop` is left
//   whole instead of becoming `/.well-[redacted]nown/openwop`.
// Longer secrets are replaced first, so a key that contains another is taken out whole.

import type { Io } from './io.ts';

export const REDACTED = '[redacted]';

/** Secrets at least this long are replaced wherever they occur; shorter ones as whole tokens only. */
export const MIN_ANYWHERE = 8;

const TOKEN_CHAR = /[A-Za-z0-9\-._~+/=]/;

const xmlEscape = (text: string): string => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

// A `\uXXXX` JSON escape or a `%XX` percent-escape. A `\u` is a JSON escape only where an even
// run of backslashes stands before it (`\\u0061` is an escaped backslash and `u0061`); that is read
// by counting the run (escapedBackslash), not by a lookbehind at the head of a pattern: such a
// lookbehind is tried at every position of the text, and on the archive of `npm start` (5 MB of
// JSON, one escape) it cost 30 ms (bench/RESULTS.md "npm start (branch start4)"). The escapes are
// found by native searches for `\u` and `%`, their hex digits read where one stands: the pattern
// `\\u([0-9a-fA-F]{4})|%([0-9a-fA-F]{2})` that did this stopped at every backslash of the text (half
// a million in that archive, every `\"` of a body kept as a JSON string) and took twice as long.
// The escapes are met left to right, and the search goes on after the whole of each one met, as
// the pattern's did, so the same escapes are found: one cannot begin inside another (its characters
// after the first are `u` and hex digits), and the ones skipped are left as they stand.

/** Whether the backslash at `at` is itself escaped: an odd run of backslashes stands before it. */
function escapedBackslash(text: string, at: number): boolean {
  let run = 0;
  while (at - run > 0 && text.charCodeAt(at - run - 1) === 0x5c) run++;
  return run % 2 === 1;
}

/** Whether `count` hex digits stand in `text` from `at` (past its end, none does). */
function hexDigits(text: string, at: number, count: number): boolean {
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    const lower = c | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x66))) return false;
  }
  return true;
}

/**
 * `text` with every escape that spells a token character decoded (spelledOut), and whether it
 * holds an escape at all; `decoded` is `text` itself when no escape spells one.
 */
function decodeSpelled(text: string): { escapes: boolean; decoded: string } {
  let escapes = false;
  let decoded = '';
  let from = 0;
  let json = text.indexOf('\\u');
  let percent = text.indexOf('%');
  while (json >= 0 || percent >= 0) {
    const isJson = json >= 0 && (percent < 0 || json < percent);
    const at = isJson ? json : percent;
    const digits = isJson ? 4 : 2;
    const start = at + (isJson ? 2 : 1);
    // Where the search goes on: after the escape, or after this character when none stands here.
    let next = at + 1;
    if (hexDigits(text, start, digits)) {
      next = start + digits;
      if (!isJson || !escapedBackslash(text, at)) {
        escapes = true;
        const whole = text.slice(at, next);
        const hex = text.slice(start, next);
        const spelled = isJson ? spelledOut(whole, hex, undefined) : spelledOut(whole, undefined, hex);
        if (spelled !== whole) {
          decoded += text.slice(from, at) + spelled;
          from = next;
        }
      }
    }
    if (json >= 0 && json < next) json = text.indexOf('\\u', next);
    if (percent >= 0 && percent < next) percent = text.indexOf('%', next);
  }
  return { escapes, decoded: from === 0 ? text : decoded + text.slice(from) };
}

/**
 * The character an escape spells when it is one of a token (RFC 3986 unreserved, RFC 6750
 * `b64token`), which no encoder has to escape; any other escape is left as it is, so a JSON
 * string or a URL stays one.
 */
function spelledOut(whole: string, json: string | undefined, percent: string | undefined): string {
  const c = String.fromCharCode(Number.parseInt(json ?? percent ?? '', 16));
  return /[A-Za-z0-9\-._~]/.test(c) || (json !== undefined && /[+/=]/.test(c)) ? c : whole;
}

/** The forms one secret can take in a text the harness writes. */
function formsOf(secret: string): string[] {
  const forms = new Set<string>([secret, xmlEscape(secret), JSON.stringify(secret).slice(1, -1)]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be percent-encoded; no text carries it that way either.
  }
  return [...forms].filter((form) => form.length > 0);
}

function replaceWholeTokens(text: string, form: string): string {
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
}

/** The secrets of an Ed25519 PKCS8 PEM: the whole PEM, its base64 body joined and line by line. */
export function pemSecrets(pem: string | undefined): string[] {
  if (!pem) return [];
  const lines = pem
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('-----'));
  return [pem, pem.trim(), lines.join(''), ...lines];
}

export class Redactor {
  #secrets: string[] = [];
  /** Every form of every secret, longest secret first: computed when secrets are added, not per text. */
  #forms: string[] = [];
  /** Matches where any form occurs (#replace), or undefined when there is no secret. */
  #anyForm: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    this.add(...secrets);
  }

  /** Adds secrets (empty and undefined ones are ignored). */
  add(...secrets: (string | undefined)[]): this {
    const all = new Set(this.#secrets);
    for (const secret of secrets) if (typeof secret === 'string' && secret !== '') all.add(secret);
    this.#secrets = [...all].sort((a, b) => b.length - a.length);
    this.#forms = this.#secrets.flatMap((secret) => formsOf(secret));
    this.#anyForm = this.#forms.length === 0 ? undefined : new RegExp(this.#forms.map((form) => form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));
    return this;
  }

  get size(): number {
    return this.#secrets.length;
  }

  /** `text` with every secret replaced by `[redacted]`, under the rule of the file comment. */
  text(text: string): string {
    const out = this.#replace(text);
    // A secret spelled with escapes no encoder needs (`\u0061` for `a` in a JSON string, `%61`
    // in a URL) is the secret to whoever decodes the text: the archive keeps bodies as the host
    // sent them. Such a text is decoded where it spells a secret, and redacted as decoded.
    if (this.#secrets.length === 0) return out;
    const { escapes, decoded } = decodeSpelled(out);
    if (!escapes) return out;
    // Nothing decoded and nothing replaced: replacing again would find nothing either (it is the
    // text just read), so the whole text is not read once more.
    if (decoded === out && out === text) return out;
    const redacted = this.#replace(decoded);
    return redacted === decoded ? out : redacted;
  }

  #replace(text: string): string {
    // Most texts hold no form of any secret: one pass of an alternation of every form tells so,
    // where a search per form read the text once per form (10 forms for the embedded host's run:
    // about 4 times slower over an archive's bodies). A text it finds nothing in is left as it is,
    // as the searches below would leave it.
    if (this.#anyForm === undefined || !this.#anyForm.test(text)) return text;
    let out = text;
    for (const form of this.#forms) {
      if (!out.includes(form)) continue;
      out = form.length >= MIN_ANYWHERE ? out.split(form).join(REDACTED) : replaceWholeTokens(out, form);
    }
    return out;
  }

  /**
   * A copy of a JSON value with every string (member names too) redacted. Iterative, so a value
   * nested as deep as a host likes cannot overflow the stack here.
   */
  value<T>(value: T): T {
    if (this.#secrets.length === 0) return value;
    const redactLeaf = (leaf: unknown): unknown => (typeof leaf === 'string' ? this.text(leaf) : leaf);
    if (typeof value !== 'object' || value === null) return redactLeaf(value) as T;
    const root: unknown = Array.isArray(value) ? [] : {};
    const stack: Array<[source: object, copy: unknown]> = [[value as object, root]];
    while (stack.length > 0) {
      const [source, copy] = stack.pop()!;
      for (const [key, child] of Object.entries(source)) {
        let next: unknown = redactLeaf(child);
        if (typeof child === 'object' && child !== null) {
          next = Array.isArray(child) ? [] : {};
          stack.push([child, next]);
        }
        if (Array.isArray(copy)) (copy as unknown[])[Number(key)] = next;
        else Object.defineProperty(copy, this.text(key), { value: next, enumerable: true, writable: true, configurable: true });
      }
    }
    return root as T;
  }

  /** An `Io` whose every line is redacted before it is written. */
  io(io: Io): Io {
    const redraw = io.redraw;
    return {
      out: (s) => io.out(this.text(s)),
      err: (s) => io.err(this.text(s)),
      tty: io.tty,
      ...(redraw === undefined ? {} : { redraw: (line: string) => redraw(this.text(line)) }),
    };
  }
}
