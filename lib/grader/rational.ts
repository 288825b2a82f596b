// Exact rationals over BigInt, and their careful conversion to a double.
//
// Used wherever a float evaluation order could change an answer: the pass@k / pass^k ratios,
// means compared against a threshold ((0.7 + 0.8 + 0.9) / 3 is 0.7999999999999999 in floats,
// 0.8 exactly here), and cost sums compared against a ceiling (0.1 + 0.2 ≤ 0.3).

/** num / den with den > 0, not necessarily in lowest terms. */
export interface Rational {
  num: bigint;
  den: bigint;
}

export const ZERO: Rational = { num: 0n, den: 1n };

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  // Not `[a, b] = [b, a % b]`, which builds an array each step where V8 does not optimize it away.
  while (b !== 0n) {
    const rest = a % b;
    a = b;
    b = rest;
  }
  return a;
}

export function reduce(r: Rational): Rational {
  if (r.num === 0n) return ZERO;
  const g = gcd(r.num, r.den);
  return g === 1n ? r : { num: r.num / g, den: r.den / g };
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * The exact rational of a double's shortest decimal text (`String(x)`), so that 0.1 is 1/10: the
 * value a suite author or a host wrote, not the binary approximation. Non-finite values are 0.
 */
export function fromNumber(x: number): Rational {
  if (!Number.isFinite(x) || x === 0) return ZERO;
  const m = DECIMAL.exec(String(x));
  if (!m) return ZERO;
  const [, sign, intPart, frac = '', exp = '0'] = m;
  const digits = BigInt(`${intPart}${frac}`) * (sign === '-' ? -1n : 1n);
  const scale = Number(exp) - frac.length;
  return reduce(scale >= 0 ? { num: digits * 10n ** BigInt(scale), den: 1n } : { num: digits, den: 10n ** BigInt(-scale) });
}

export function add(a: Rational, b: Rational): Rational {
  if (a.den === b.den) return reduce({ num: a.num + b.num, den: a.den });
  return reduce({ num: a.num * b.den + b.num * a.den, den: a.den * b.den });
}

export function sum(values: Iterable<Rational>): Rational {
  let total = ZERO;
  for (const v of values) total = add(total, v);
  return total;
}

export function divideByInteger(a: Rational, n: number): Rational {
  if (n === 0) return ZERO;
  return reduce({ num: a.num, den: a.den * BigInt(n) });
}

/** The mean of doubles taken by their decimal value; 0 for an empty list. */
export function exactMean(values: readonly number[]): Rational {
  return divideByInteger(sum(values.map(fromNumber)), values.length);
}

/** a ≥ b, exactly. */
export function greaterOrEqual(a: Rational, b: Rational): boolean {
  return a.num * b.den >= b.num * a.den;
}

/** The number of bits of a non-negative BigInt (0 for 0). */
export function bitLength(x: bigint): number {
  if (x <= 0n) return 0;
  const hex = x.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
}

/** x · 2^e without intermediate overflow or underflow. */
function scaleByPowerOfTwo(x: number, e: number): number {
  while (e > 1000) {
    x *= 2 ** 1000;
    e -= 1000;
  }
  while (e < -1000) {
    x *= 2 ** -1000;
    e += 1000;
  }
  return x * 2 ** e;
}

/**
 * num / den as a double, within about one unit in the last place, however large num and den
 * are: the quotient is taken with at least 64 significant bits by BigInt division before the
 * single conversion to a double.
 */
export function toNumber(num: bigint, den: bigint): number {
  if (den === 0n) return Number.NaN;
  if (num === 0n) return 0;
  const negative = num < 0n !== den < 0n;
  const n = abs(num);
  const d = abs(den);
  const shift = bitLength(d) - bitLength(n) + 66;
  const q = shift >= 0 ? (n << BigInt(shift)) / d : n / (d << BigInt(-shift));
  const value = scaleByPowerOfTwo(Number(q), -shift);
  return negative ? -value : value;
}

export function ratToNumber(r: Rational): number {
  return toNumber(r.num, r.den);
}
