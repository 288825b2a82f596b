// The fixture files a host reads at start (suites.ts `loadFixtureFiles`) are parsed and checked
// once per process and checker, and again whenever a file's text changes: a host started on an
// edited or broken file sees the edit, and refuses the broken one, as a first start would.
// Covers: the storage rules of the reference host (the seeded suites, CONTRACT.md §1).

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../lib/package-root.ts';
import { startReferenceHost } from './server.ts';
import { loadFixtureFiles } from './suites.ts';

const NAME = 'conformance-eval-trajectory.json';
const dir = mkdtempSync(join(tmpdir(), 'openwop-fixture-files-'));
copyFileSync(packagePath(`fixtures/eval-suites/${NAME}`), join(dir, NAME));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the fixture files of the reference host', () => {
  it('are checked once while their text stays, again when it changes, and shared frozen', () => {
    let checks = 0;
    const check = (): string[] => {
      checks++;
      return [];
    };
    const first = loadFixtureFiles(dir, check);
    const second = loadFixtureFiles(dir, check);
    expect(checks).toBe(1);
    expect(second[0]).toBe(first[0]);
    expect(Object.isFrozen(first[0]!.suite)).toBe(true);
    writeFileSync(join(dir, NAME), JSON.stringify({ ...first[0], requires: {} }));
    const edited = loadFixtureFiles(dir, check);
    expect(checks).toBe(2);
    expect(edited[0]!.requires).toEqual({});
    // Another checker checks for itself.
    loadFixtureFiles(dir, () => []);
    expect(checks).toBe(2);
  });

  it('refuse a file broken after a host started on it, and take it back once mended', async () => {
    copyFileSync(packagePath(`fixtures/eval-suites/${NAME}`), join(dir, NAME));
    const host = await startReferenceHost({ log: () => {}, port: 0, fixturesDir: dir });
    await host.close();
    writeFileSync(join(dir, NAME), JSON.stringify({ id: 'conformance-eval-trajectory', requires: {}, suite: {} }));
    await expect(startReferenceHost({ log: () => {}, port: 0, fixturesDir: dir })).rejects.toThrow(/is invalid/);
    copyFileSync(packagePath(`fixtures/eval-suites/${NAME}`), join(dir, NAME));
    const again = await startReferenceHost({ log: () => {}, port: 0, fixturesDir: dir });
    await again.close();
  });
});
