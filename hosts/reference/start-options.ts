// What the reference host makes of its options before it starts: its two tenants, the key it
// publishes and its switches. Apart from server.ts, and light, so that `run --reference-host-config`
// refuses what the host would refuse, and checks what it would advertise, before the host is loaded
// (commands/support/reference-host.ts).

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { rawEd25519PublicKey } from '../../lib/evidence/ed25519.ts';
import { TENANT_ID_PATTERN } from './ids.ts';

/** The vendor the host's discovery names unless `implementation` says another. */
export const VENDOR = 'openwop-eval-conformance';

export interface TenantCredentials {
  tenantId: string;
  apiKey: string;
}

export const DEFAULT_TENANTS: { a: TenantCredentials; b: TenantCredentials } = {
  a: { tenantId: 'tenant-a', apiKey: 'ow2k_tenant_a_dev_key' },
  b: { tenantId: 'tenant-b', apiKey: 'ow2k_tenant_b_dev_key' },
};

export function resolveTenants(option: { a?: Partial<TenantCredentials>; b?: Partial<TenantCredentials> } | undefined): {
  a: TenantCredentials;
  b: TenantCredentials;
} {
  const a = { ...DEFAULT_TENANTS.a, ...option?.a };
  const b = { ...DEFAULT_TENANTS.b, ...option?.b };
  for (const t of [a, b]) {
    if (!TENANT_ID_PATTERN.test(t.tenantId)) throw new Error(`tenant id "${t.tenantId}" is not a v2 tenantId`);
    if (t.apiKey.length < 8) throw new Error(`the API key of tenant ${t.tenantId} is shorter than 8 characters`);
  }
  if (a.tenantId === b.tenantId) throw new Error('the two tenants must have different ids');
  if (a.apiKey === b.apiKey) throw new Error('the two tenants must have different API keys');
  return { a, b };
}

export function resolveSigningKey(option: KeyObject | string | undefined): KeyObject {
  const key = option === undefined ? generateKeyPairSync('ed25519').privateKey : typeof option === 'string' ? createPrivateKey(option) : option;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') {
    throw new Error('signingKey must be an Ed25519 private key');
  }
  return key;
}

export function resolvePublishedKey(option: KeyObject | string): KeyObject {
  const key = typeof option === 'string' ? createPublicKey(option) : option;
  if (key.type !== 'public' || key.asymmetricKeyType !== 'ed25519') throw new Error('publishedKey must be an Ed25519 public key');
  return key;
}

/**
 * The key the host publishes and its id: `publishedKey` when given, else the public half of
 * `signingKey` (a fresh key without one); the id given, else one derived from the key.
 */
export function resolvePublishing(options: { publishedKey?: KeyObject | string; signingKey?: KeyObject | string; signingKeyId?: string }): {
  publicKey: KeyObject;
  keyId: string;
} {
  const publicKey = options.publishedKey !== undefined ? resolvePublishedKey(options.publishedKey) : createPublicKey(resolveSigningKey(options.signingKey));
  const keyId = options.signingKeyId ?? `reference-host-${createHash('sha256').update(rawEd25519PublicKey(publicKey)).digest('hex').slice(0, 16)}`;
  return { publicKey, keyId };
}

/**
 * The host's switches, each on by default; each of the seams, the run effects, the holds and the
 * live tool errors needs the one before it.
 */
export function resolveSwitches(options: { seams?: boolean; runEffects?: boolean; holds?: boolean; liveToolErrors?: boolean; replay?: boolean }): {
  seams: boolean;
  runEffects: boolean;
  holds: boolean;
  liveToolErrors: boolean;
  replay: boolean;
} {
  const seams = options.seams ?? true;
  const runEffects = seams && (options.runEffects ?? true);
  const holds = runEffects && (options.holds ?? true);
  return { seams, runEffects, holds, liveToolErrors: holds && (options.liveToolErrors ?? true), replay: options.replay ?? true };
}
