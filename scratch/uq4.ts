// The uq4 round's host: the known-bad derived-live-calls-only, certified with scratch/certify.ts.
import type { KnownBadHost } from '../hosts/known-bad/catalogue/build.ts';
import { FIXTURE_SERVED_SOURCES } from '../hosts/known-bad/catalogue/v2-eval-recorded-fixtures/0252-d-fixture-served-sources.ts';

export const HONEST: KnownBadHost = { name: 'honest', defect: 'none', clause: '-', base: {}, options: {} };
export const REDTEAM_HOSTS: KnownBadHost[] = [...FIXTURE_SERVED_SOURCES];
