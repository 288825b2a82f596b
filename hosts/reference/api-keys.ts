// The API keys a host accepts, and which tenant a presented key names, found in constant time.

import { timingSafeEqual } from 'node:crypto';

/** Blocks are a whole number of these: the block size says nothing of any one key's length. */
const BLOCK_STEP = 256;
/** The block's first bytes hold the key's UTF-8 length. */
const LENGTH_BYTES = 4;

/**
 * Keys are compared as blocks of one size: the key's UTF-8 length, then its bytes, zero-padded.
 * Two blocks are equal exactly when the keys are, and timingSafeEqual takes the same time whatever
 * they hold. A presented key longer than the block fits is written truncated behind its own
 * length, which no held key's block carries. This costs a copy per request where a digest of the
 * presented key cost a hash object per request, the largest share of a request's authentication.
 */
export class ApiKeys {
  readonly #held: { tenantId: string; block: Buffer }[];
  /** The presented key's block, rewritten for each request (the comparison is synchronous). */
  readonly #presented: Buffer;

  constructor(tenants: readonly { tenantId: string; apiKey: string }[]) {
    const longest = Math.max(0, ...tenants.map((t) => Buffer.byteLength(t.apiKey, 'utf8')));
    const size = LENGTH_BYTES + Math.ceil((longest + 1) / BLOCK_STEP) * BLOCK_STEP;
    this.#held = tenants.map((t) => ({ tenantId: t.tenantId, block: fill(Buffer.alloc(size), t.apiKey) }));
    this.#presented = Buffer.alloc(size);
  }

  /** The tenant whose key `presented` is; every held key is compared, whichever matches. */
  tenantOf(presented: string): string | undefined {
    const block = fill(this.#presented, presented);
    let tenant: string | undefined;
    for (const held of this.#held) if (timingSafeEqual(block, held.block)) tenant = held.tenantId;
    return tenant;
  }
}

/** Writes `key`'s block into `block`: its length, its bytes (as many as fit), zeros. */
function fill(block: Buffer, key: string): Buffer {
  block.fill(0);
  block.writeUInt32BE(Math.min(Buffer.byteLength(key, 'utf8'), 0xffffffff), 0);
  block.write(key, LENGTH_BYTES, 'utf8');
  return block;
}
