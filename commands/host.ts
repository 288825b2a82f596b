// The `host` command: the embedded reference host on 127.0.0.1, its base URL and tenant keys
// printed, until SIGINT or SIGTERM. It publishes in its discovery `signingKeys` the key a vendor
// certifies with (docs/certifying.md "Try the reference host"): the public key given with
// `--publish-key`, or the public half of a fresh key it writes with `--write-signing-key`, so that a
// bundle signed with that key verifies against the host, `--require-behavior` included.

import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { generateDevKeyPair, readPublicKeyFile } from '../lib/evidence/keys.ts';
import { cannotStart, type Io } from '../lib/io.ts';
import { usage } from './support/usage.ts';
import { importReferenceHost, type ReferenceHost } from './support/reference-host.ts';

export interface HostOptions {
  port: string;
  db?: string;
  /** `--publish-key PEM`: an Ed25519 public key the vendor holds, published in discovery. */
  publishKey?: string;
  /** `--write-signing-key FILE`: a fresh Ed25519 key, its private half written to FILE, its public half published. */
  writeSigningKey?: string;
  /** `--signing-key-id ID`: the key id it is published under. */
  signingKeyId?: string;
}

const KEY_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The public key the host publishes, from the flags; a problem is one line, exit 2. */
function keyToPublish(options: HostOptions): { ok: true; publishedKey?: string; wrote?: string } | { ok: false; problem: string } {
  if (options.publishKey !== undefined && options.writeSigningKey !== undefined)
    return { ok: false, problem: 'give --publish-key or --write-signing-key, not both' };
  if (options.signingKeyId !== undefined && !KEY_ID.test(options.signingKeyId))
    return { ok: false, problem: `--signing-key-id: not a key id (letters, digits and . _ : -, at most 128): ${options.signingKeyId}` };
  if ((options.publishKey !== undefined || options.writeSigningKey !== undefined) && options.signingKeyId === undefined)
    return { ok: false, problem: '--signing-key-id is required with --publish-key and --write-signing-key: the id a bundle names its key by' };
  if (options.publishKey !== undefined) {
    const key = readPublicKeyFile(options.publishKey);
    return key.ok ? { ok: true, publishedKey: key.pem } : { ok: false, problem: `--publish-key: ${key.reason}` };
  }
  if (options.writeSigningKey !== undefined) {
    // Never overwrite a key someone may already have published.
    if (existsSync(options.writeSigningKey)) return { ok: false, problem: `--write-signing-key: ${options.writeSigningKey} exists; give a new file` };
    const pair = generateDevKeyPair();
    try {
      writeFileSync(options.writeSigningKey, pair.privateKeyPem, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      return { ok: false, problem: `--write-signing-key: cannot write ${options.writeSigningKey}: ${(error as Error).message}` };
    }
    return { ok: true, publishedKey: pair.publicKeyPem, wrote: options.writeSigningKey };
  }
  return { ok: true };
}

export async function hostCommand(options: HostOptions, io: Io): Promise<number> {
  // Digits only: Number('') is 0, and `--port "$PORT"` with PORT unset would pick a free port unasked.
  const port = /^\d+$/.test(options.port) ? Number(options.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return usage(io, `--port: not a port number: ${options.port}`);
  const key = keyToPublish(options);
  if (!key.ok) return usage(io, key.problem);
  let host: ReferenceHost;
  try {
    const { startReferenceHost } = await importReferenceHost();
    host = await startReferenceHost({
      port,
      dbPath: options.db,
      ...(key.publishedKey !== undefined ? { publishedKey: key.publishedKey, signingKeyId: options.signingKeyId } : {}),
    });
  } catch (error) {
    // A key never published is no use, and left behind it would refuse the same command again
    // (`exists; give a new file`) once the port is free.
    if (key.wrote !== undefined) rmSync(key.wrote, { force: true });
    return cannotStart(io, `the reference host could not start: ${(error as Error).message}`);
  }
  io.out(`reference host listening on ${host.baseUrl}\n`);
  io.out(`tenant A: ${host.tenants.a.tenantId}  key ${host.tenants.a.apiKey}\n`);
  io.out(`tenant B: ${host.tenants.b.tenantId}  key ${host.tenants.b.apiKey}\n`);
  if (key.wrote !== undefined) io.out(`signing key written to ${key.wrote} (private: keep it; its public half is published)\n`);
  if (key.publishedKey !== undefined) io.out(`publishes signing key ${options.signingKeyId} in its discovery signingKeys\n`);
  else io.out('publishes a fresh random signing key: to certify against it, start it with --write-signing-key or --publish-key\n');
  io.out(`database: ${options.db ?? 'none, runs kept in memory'}; stop with Ctrl-C\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await host.close();
  return 0;
}
