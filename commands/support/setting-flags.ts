// The flag and environment variable that set each setting a message of the harness names
// (lib/setting-names.ts), as run-settings.ts reads them: the command line owns these names and
// hands them down with the groups they name.

import type { SettingNames } from '../../lib/setting-names.ts';

export const SETTING_FLAGS: SettingNames = {
  requestTimeout: '--request-timeout',
  legDeadline: '--leg-deadline',
  progressTimeout: '--progress-timeout',
  timeoutScale: 'OPENWOP_TIMEOUT_SCALE',
  maxEvents: '--max-events (OPENWOP_MAX_EVENTS)',
  maxResponseBytes: '--max-response-bytes (OPENWOP_MAX_RESPONSE_BYTES)',
  maxEventsInFlight: '--max-events-in-flight (OPENWOP_MAX_EVENTS_IN_FLIGHT)',
  maxBytesInFlight: '--max-bytes-in-flight (OPENWOP_MAX_BYTES_IN_FLIGHT)',
  requireBehavior: '--require-behavior',
  apiKey: '--api-key, OPENWOP_API_KEY',
  tenantBApiKey: '--tenant-b-api-key, OPENWOP_TEST_TENANT_B_API_KEY',
  // The row of a leg that needs tenant B's key and was given none says it so: signed rows carry it.
  tenantBApiKeyMissing: '--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY',
  hostKey: '--host-key',
  signingKey: '--signing-key',
  signingKeyId: '--signing-key-id',
  expectedFailures: '--expected-failures',
  list: 'run --list',
  offline: '--offline',
  filter: '--filter',
  replayDeadline: '--replay-deadline',
};
