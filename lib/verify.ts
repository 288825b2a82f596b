// The `verify` command: every rejection a bundle earns, and whether its signature holds under
// the host's key — given as a PEM file, or read from the host's discovery `signingKeys`.

import { createClient, discover } from './client/index.ts';
import { readBundleFile, readPublicKeyFile } from './evidence/keys.ts';
import { verifyBundle, verifyExitCode, type VerifyOptions } from './evidence/verify.ts';

type Io = { out: (s: string) => void; err: (s: string) => void };

export async function verifyCommand(path: string, options: { hostKey?: string; discovery?: string }, io: Io): Promise<number> {
  if (options.hostKey && options.discovery) {
    io.err('openwop-eval-conformance: give --host-key or --discovery, not both\n');
    return 2;
  }
  const file = readBundleFile(path);
  if (!file.ok) {
    io.err(`openwop-eval-conformance: not a bundle: ${file.reason}\n`);
    return 3;
  }
  const keys: VerifyOptions = {};
  if (options.hostKey) {
    const key = readPublicKeyFile(options.hostKey);
    if (!key.ok) {
      io.err(`openwop-eval-conformance: ${key.reason}\n`);
      return 2;
    }
    keys.hostPublicKeyPem = key.pem;
  } else if (options.discovery) {
    const raw = await publishedKey(options.discovery, file.bundle);
    if (!raw.ok) {
      io.err(`openwop-eval-conformance: ${raw.reason}\n`);
      return 2;
    }
    keys.hostPublicKeyRaw = raw.key;
  }
  let result;
  try {
    result = verifyBundle(file.bundle, keys);
  } catch (error) {
    io.err(`openwop-eval-conformance: the host key cannot be used: ${(error as Error).message}\n`);
    return 2;
  }
  for (const rejection of result.rejections) io.out(`rejected: ${rejection.kind}: ${rejection.detail}\n`);
  if (result.developmentKey) io.out('note: signed with a self-signed development key: the signature attests integrity, not who signed\n');
  io.out(`${result.verdict}${result.signatureVerified ? ' (host signature checked)' : ''}\n`);
  return verifyExitCode(result);
}

/** The raw key that `signature.keyId` names in the discovery document at `url`. */
async function publishedKey(url: string, bundle: Record<string, unknown>): Promise<{ ok: true; key: string } | { ok: false; reason: string }> {
  const parsed = /^(https?:\/\/[^/]+)(\/.*)?$/.exec(url);
  if (!parsed) return { ok: false, reason: `--discovery: not an http(s) URL: ${url}` };
  let found;
  try {
    found = await discover(createClient({ baseUrl: parsed[1]! }));
  } catch (error) {
    return { ok: false, reason: `--discovery: ${(error as Error).message}` };
  }
  if (!found.ok) return { ok: false, reason: `--discovery: ${found.reason}` };
  const keyId = (bundle.signature as { keyId?: unknown } | undefined)?.keyId;
  const keys = Array.isArray(found.document.signingKeys) ? found.document.signingKeys : [];
  const entry = keys.find((k): k is { keyId: string; publicKey: string } => typeof k === 'object' && k !== null && (k as { keyId?: unknown }).keyId === keyId);
  if (entry === undefined || typeof entry.publicKey !== 'string') return { ok: false, reason: `--discovery: the host publishes no signing key ${JSON.stringify(keyId)}` };
  return { ok: true, key: entry.publicKey };
}
