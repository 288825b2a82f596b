// Where the browser tests find Chromium: `OPENWOP_CHROMIUM`, else `CHROME_PATH`, else the usual
// install paths of Debian and Ubuntu, Fedora, snap, Homebrew and macOS. No test downloads a
// browser of its own. Outside CI a missing browser is a reported skip with the reason; under
// `CI=true` it is a failure, so CI can never pass by not looking.

import { existsSync } from 'node:fs';

export const USUAL_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib64/chromium-browser/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/homebrew/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export type ChromiumLookup = { found: true; path: string } | { found: false; reason: string };

export function findChromium(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): ChromiumLookup {
  for (const name of ['OPENWOP_CHROMIUM', 'CHROME_PATH'] as const) {
    const path = env[name];
    if (path === undefined || path === '') continue;
    return exists(path) ? { found: true, path } : { found: false, reason: `${name} names ${path}, which does not exist` };
  }
  const path = USUAL_CHROMIUM_PATHS.find((candidate) => exists(candidate));
  if (path !== undefined) return { found: true, path };
  return {
    found: false,
    reason: `no Chromium found (set OPENWOP_CHROMIUM or CHROME_PATH, or install it at one of ${USUAL_CHROMIUM_PATHS.join(', ')}; on Debian: apt-get install chromium)`,
  };
}

/** Under CI a missing browser fails the run; elsewhere the tests that need it skip, saying why. */
export function chromiumOrSkipReason(env: NodeJS.ProcessEnv = process.env): { path?: string; skip?: string } {
  const lookup = findChromium(env);
  if (lookup.found) return { path: lookup.path };
  if (env.CI === 'true') throw new Error(`CI=true and the browser tests cannot run: ${lookup.reason}`);
  return { skip: lookup.reason };
}
