const { fullFormats } = require('/work/main/node_modules/ajv-formats/dist/formats.js');
const FULL = fullFormats['date-time'];
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function is(text, at, code) { return text.charCodeAt(at) === code; }
function twoDigits(text, at) { const tens = text.charCodeAt(at) - 0x30; const ones = text.charCodeAt(at + 1) - 0x30; return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1; }
function a(text) {
  const length = text.length;
  if (length < 20 || length === 21 || text.charCodeAt(length - 1) !== 0x5a) return undefined;
  if (!(is(text, 4, 0x2d) && is(text, 7, 0x2d) && is(text, 10, 0x54) && is(text, 13, 0x3a) && is(text, 16, 0x3a))) return undefined;
  if (length > 20) { if (!is(text, 19, 0x2e)) return undefined; for (let i = 20; i < length - 1; i++) if (!(text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39)) return undefined; }
  const century = twoDigits(text, 0), yearOf = twoDigits(text, 2), month = twoDigits(text, 5), day = twoDigits(text, 8), hour = twoDigits(text, 11), minute = twoDigits(text, 14), second = twoDigits(text, 17);
  if (century < 0 || yearOf < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  const year = century * 100 + yearOf; const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS[month])) return false;
  return hour <= 23 && minute <= 59 && second <= 59 ? true : undefined;
}
const COMMON = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;
function b(text) {
  if (!COMMON.test(text)) return undefined;
  const c = (at) => text.charCodeAt(at) - 0x30;
  const year = c(0) * 1000 + c(1) * 100 + c(2) * 10 + c(3);
  const month = c(5) * 10 + c(6), day = c(8) * 10 + c(9);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS[month])) return false;
  return c(11) * 10 + c(12) <= 23 && c(14) * 10 + c(15) <= 59 && c(17) * 10 + c(18) <= 59 ? true : undefined;
}
function cc(text) {
  if (!COMMON.test(text)) return undefined;
  const year = (text.charCodeAt(0) - 48) * 1000 + (text.charCodeAt(1) - 48) * 100 + (text.charCodeAt(2) - 48) * 10 + (text.charCodeAt(3) - 48);
  const month = (text.charCodeAt(5) - 48) * 10 + (text.charCodeAt(6) - 48);
  const day = (text.charCodeAt(8) - 48) * 10 + (text.charCodeAt(9) - 48);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS[month])) return false;
  const hour = (text.charCodeAt(11) - 48) * 10 + (text.charCodeAt(12) - 48), minute = (text.charCodeAt(14) - 48) * 10 + (text.charCodeAt(15) - 48), second = (text.charCodeAt(17) - 48) * 10 + (text.charCodeAt(18) - 48);
  return hour <= 23 && minute <= 59 && second <= 59 ? true : undefined;
}
const xs = Array.from({ length: 5000 }, (_, i) => new Date(1.7e12 + i * 7777).toISOString());
const fns = { full: (t) => FULL.validate(t), a: (t) => a(t) ?? FULL.validate(t), b: (t) => b(t) ?? FULL.validate(t), c: (t) => cc(t) ?? FULL.validate(t) };
for (let r = 0; r < 3; r++) for (const [n, f] of Object.entries(fns)) { const t0 = performance.now(); let k = 0; for (const x of xs) if (f(x)) k++; console.log(r, n, (performance.now() - t0).toFixed(2), k); }
function digits(text, at, end) { let n = 0; for (let i = at; i < end; i++) n = n * 10 + text.charCodeAt(i) - 0x30; return n; }
function dd(text) {
  if (!COMMON.test(text)) return undefined;
  const year = digits(text, 0, 4), month = digits(text, 5, 7), day = digits(text, 8, 10);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS[month])) return false;
  return digits(text, 11, 13) <= 23 && digits(text, 14, 16) <= 59 && digits(text, 17, 19) <= 59 ? true : undefined;
}
const f2 = { full: (t) => FULL.validate(t), c: (t) => cc(t) ?? FULL.validate(t), d: (t) => dd(t) ?? FULL.validate(t) };
const ys = Array.from({ length: 5000 }, (_, i) => new Date(1.6e12 + i * 7777).toISOString());
for (let r = 0; r < 3; r++) for (const [n, f] of Object.entries(f2)) { const t0 = performance.now(); let k = 0; for (const x of ys) if (f(x)) k++; console.log('second', r, n, (performance.now() - t0).toFixed(2), k); }
