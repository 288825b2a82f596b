// Round honest5: honest variants taking readings the text allows and the latitude matrix does not
// yet take (scratch). Helpers in ./honest5-helpers.ts, the variants in ./honest5-a.ts and ./honest5-b.ts.
import { VARIANTS_A } from './honest5-a.ts';
import { VARIANTS_B } from './honest5-b.ts';
import type { Variant } from './honest5-helpers.ts';

export { HONEST, idEdits, type Variant } from './honest5-helpers.ts';
export const VARIANTS: Variant[] = [...VARIANTS_A, ...VARIANTS_B];
