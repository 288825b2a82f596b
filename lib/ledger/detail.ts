// The detail of a row, as every row carries it: bounded, so a host that answers with a book
// cannot swell the report or the bundle.

/** The longest detail a row carries. */
export const MAX_DETAIL = 2_000;

/** `text` cut to MAX_DETAIL characters, ending in `...` when cut. */
export function clipDetail(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 3)}...` : text;
}
