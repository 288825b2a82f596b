// The `schema` rejection: the closed bundle v3 shape, as `schemas/v2/certification-bundle.schema.json`
// states it, checked through the project's schema registry (lib/schemas).
//
// The schema admits two suite names: the upstream suite's (docs/wire.md §12.1) and this harness's,
// which its bundles carry because it is not that suite.

import { validate } from '../schemas/index.ts';
import { SIGNED_MEMBERS } from './types.ts';
import { isJsonObject } from '../json-value.ts';

/** `suite.name` of the bundles this harness cuts. */
export const SUITE_NAME = 'openwop-eval-conformance';
/** `suite.name` the upstream schema pins (docs/wire.md §12.1). */
export const UPSTREAM_SUITE_NAME = '@openwop/openwop-conformance';

type Json = Record<string, unknown>;

/**
 * Every way `bundle` departs from the bundle v3 schema, one "<path> <message>" line each.
 * `signed: false` checks a bundle before its signature is attached, with a stand-in signature
 * that the shape accepts, so only the rest of the bundle is judged.
 */
export function shapeProblems(bundle: Json, options: { signed?: boolean } = {}): string[] {
  let subject = bundle;
  if (options.signed === false) {
    const host = isJsonObject(bundle.host) ? bundle.host : {};
    const keyId = typeof host.signingKeyId === 'string' ? host.signingKeyId : 'unsigned';
    subject = { ...subject, signature: { alg: 'ed25519', keyId, sig: 'A'.repeat(86), over: [...SIGNED_MEMBERS] } };
  }
  const result = validate('certification-bundle', subject);
  return result.ok ? [] : result.errors;
}
