// How the user sets each setting a message of the harness may tell them to change. The names
// belong to the command line (commands/support/setting-flags.ts builds them from its flags and
// environment variables) and travel down as data with the groups they name; a layer given none
// names the setting in the harness's own words, never a flag (test/settings-read.test.ts).

export type Setting =
  | 'requestTimeout'
  | 'legDeadline'
  | 'progressTimeout'
  | 'timeoutScale'
  | 'maxEvents'
  | 'maxResponseBytes'
  | 'maxEventsInFlight'
  | 'maxBytesInFlight'
  | 'requireBehavior'
  | 'apiKey'
  | 'tenantBApiKey'
  | 'tenantBApiKeyMissing'
  | 'hostKey'
  | 'signingKey'
  | 'signingKeyId'
  | 'expectedFailures'
  | 'list'
  | 'offline'
  | 'filter'
  | 'replayDeadline';

export type SettingNames = Readonly<Record<Setting, string>>;

/** Each setting in the harness's own words, for a caller that gives no names of its own. */
export const DOMAIN_NAMES: SettingNames = {
  requestTimeout: 'the request timeout setting',
  legDeadline: 'the leg deadline setting',
  progressTimeout: 'the progress timeout setting',
  timeoutScale: 'the timeout scale setting',
  maxEvents: 'the events-per-run cap setting',
  maxResponseBytes: 'the response-bytes cap setting',
  maxEventsInFlight: 'the events-in-flight budget setting',
  maxBytesInFlight: 'the bytes-in-flight budget setting',
  requireBehavior: 'the require-behaviour setting',
  apiKey: 'the API key setting',
  tenantBApiKey: 'the tenant-B API key setting',
  tenantBApiKeyMissing: 'the tenant-B API key setting',
  hostKey: 'the host key setting',
  signingKey: 'the signing key setting',
  signingKeyId: 'the signing key id setting',
  expectedFailures: 'the expected-failures file',
  list: 'the list of requirement ids',
  offline: 'the offline setting',
  filter: 'the filter',
  replayDeadline: 'the replay deadline setting',
};
