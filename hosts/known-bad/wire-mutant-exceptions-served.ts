// The generated mutants of route answers and event envelopes (./wire-mutants-served.ts) the
// harness does not kill, each by name with the clause that leaves it to the host. Merged into
// WIRE_MUTANT_EXCEPTIONS (./wire-mutant-exceptions.ts). Most are members the wire calls
// informational, or whose value (or presence) docs/wire.md does not fix; each reason names the
// clause that leaves it open. A member a clause does fix gets its check instead (CONTRIBUTING.md).

/** The event types the reference host serves in an eval run, each envelope's exceptions named for each. */
const SERVED_TYPES = [
  'eval-started',
  'eval-scored',
  'eval-completed',
  'run-started',
  'run-completed',
  'agent-invocation-started',
  'agent-tool-called',
  'agent-tool-returned',
  'agent-decided',
  'agent-invocation-completed',
  'provider-usage',
] as const;

/** The routes whose refusals the reference host serves during a certification, with a message. */
const REFUSING_ROUTES = [
  'create-4xx',
  'snapshot-404',
  'events-404',
  'poll-404',
  'summary-404',
  'summary-409',
  'cancel-404',
  'cancel-409',
  'seam-run-effects-404',
  'seam-erase-404',
  'fork-404',
  'fork-409',
];

const IMPLEMENTATION =
  "no defect: implementation{name, version, vendor} is informational (docs/wire.md §1.2); the bundle's host is read from the same served document, so it agrees";
const SIGNING_KEYS =
  'no clause a certification holds: signingKeys publish the keys of bundles the host signs itself (docs/wire.md §12.4); a certification by this harness signs with its own key and reads none';
const FAMILY =
  "no defect: a family record's status, since, until and witness say how the family is claimed (docs/wire.md §1.2 'Family records'); none changes what a leg demands of a claimed family";
const CLAIMS_LESS = (member: string): string =>
  `no defect: ${member} claims less (docs/wire.md §1.2: what is absent is not claimed; CONTRACT §1, §5), so the legs it gates are inapplicable, not passed, and the harness seeds every fixture it reads`;
const SNAPSHOT_UNFIXED = (member: string): string =>
  `no clause fixes it: docs/wire.md §5.4 names no ${member} among the snapshot's members; run-snapshot.schema.json admits it as the upstream snapshot does, and no leg reads it`;

export const SERVED_EXCEPTIONS: Readonly<Record<string, string>> = {
  // Discovery (docs/wire.md §1.2).
  'wire-altered-route-discovery-200-preferredversion':
    'no clause a certification holds: preferredVersion is what a host answers a request without OpenWOP-Version (docs/wire.md §1.2); this harness always sends OpenWOP-Version 2.0',
  'wire-dropped-route-discovery-200-implementation': IMPLEMENTATION,
  ...Object.fromEntries(
    ['name', 'version', 'vendor'].flatMap((member) =>
      ['dropped', 'altered', 'swapped'].map((how) => [`wire-${how}-route-discovery-200-implementation-${member}`, IMPLEMENTATION]),
    ),
  ),
  'wire-dropped-route-discovery-200-eventlogschemaversion':
    'no clause fixes it: eventLogSchemaVersion is optional in the v2 root (capabilities.schema.json, docs/wire.md §1.2) and no leg reads it',
  'wire-plus-one-route-discovery-200-eventlogschemaversion':
    'no clause fixes its value: docs/wire.md §1.2 asks an integer ≥ 2 ("v2 hosts write 3" describes the hosts, and the events carry their own schemaVersion)',
  'wire-dropped-route-discovery-200-signingkeys': SIGNING_KEYS,
  'wire-item-dropped-route-discovery-200-signingkeys': SIGNING_KEYS,
  'wire-item-duplicated-route-discovery-200-signingkeys': SIGNING_KEYS,
  'wire-altered-route-discovery-200-signingkeys-keyid': SIGNING_KEYS,
  'wire-altered-route-discovery-200-signingkeys-publickey': SIGNING_KEYS,
  'wire-dropped-route-discovery-200-signingkeys-use': SIGNING_KEYS,
  'wire-dropped-route-discovery-200-fixtures': CLAIMS_LESS('a discovery without fixtures'),
  'wire-item-dropped-route-discovery-200-fixtures': CLAIMS_LESS('a fixture id left out of fixtures'),
  'wire-items-swapped-route-discovery-200-fixtures': 'no defect: fixtures is a set of unique ids (docs/wire.md §1.2); its order is not fixed',
  'wire-dropped-route-discovery-200-conformance-evalseamsprofile': CLAIMS_LESS('a conformance record without evalSeamsProfile'),
  'wire-altered-route-discovery-200-conformance-evalseamsprofile': CLAIMS_LESS('an evalSeamsProfile this harness does not know'),
  'wire-altered-route-discovery-200-agents-status': FAMILY,
  'wire-altered-route-discovery-200-agents-since': FAMILY,
  'wire-altered-route-discovery-200-agents-until': FAMILY,
  'wire-altered-route-discovery-200-agents-witness': FAMILY,
  // The create answer (docs/wire.md §4).
  'wire-altered-route-create-201-status':
    "no defect the wire shows: a created run's status is any of pending, running, waiting-approval, waiting-input, waiting-external (docs/wire.md §4), and its later statuses are read and held (run-status-consistent)",
  'wire-dropped-route-create-201-statusurl': 'no defect: statusUrl is optional (docs/wire.md §4 `statusUrl?`)',
  // The cancel of an ended run (docs/wire.md §5.4: 409 run_terminal, the code alone fixed).
  ...Object.fromEntries(
    ['wire-dropped-route-cancel-409-details', 'wire-dropped-route-cancel-409-details-runstatus', 'wire-altered-route-cancel-409-details-runstatus'].map(
      (name) => [
        name,
        'no clause fixes it: docs/wire.md §1.4 makes details optional but for unsupported_stream_mode and run_state_conflict, and run_terminal is neither; the leg reads the code and the log (cancel-terminal-refused)',
      ],
    ),
  ),
  'wire-dropped-route-create-4xx-details':
    'no clause fixes it: docs/wire.md §1.4 makes details optional but for unsupported_stream_mode and run_state_conflict, and a create refusal is neither',
  // The fork answer (docs/wire.md §5.5).
  'wire-dropped-route-fork-201-fromseq':
    'no defect: fromSeq is optional in the fork answer (docs/wire.md §5.5 `fromSeq?`); one served is held to the fork point asked for (openwop.requirement.0252.fork-re-reads)',
  'wire-altered-route-fork-201-status':
    "no defect the wire shows: a fork's new run answers a create's status, any of pending, running, waiting-approval, waiting-input, waiting-external (docs/wire.md §4, §5.5), and its later statuses are read and held (run-status-consistent)",
  'wire-altered-route-fork-409-error':
    'no clause fixes the code: RFC 0252 Security says a fork whose derived copy is gone SHOULD be refused and names no code, so the fork route takes any code on its 409 (docs/wire.md §5.5)',
  // The keyed counter seam (CONTRACT §5).
  'wire-plus-one-route-seam-counter-200-count':
    "no clause fixes its origin: a counter's count lives in the host and survives across runs (CONTRACT §5), and a key derives from the certification's seed, which a second certification of the host repeats; the harness compares only how far a count moved between two reads",
  // Refusals: the message is free text.
  ...Object.fromEntries(
    REFUSING_ROUTES.map((at) => [
      `wire-altered-route-${at}-message`,
      'no defect: an error message is non-empty free text (docs/wire.md §1.4); only the code is read',
    ]),
  ),
  'wire-altered-route-summary-409-details-runstatus':
    'no defect the wire shows: details.runStatus names the status of a run not yet terminal (docs/wire.md §7), which may change between answers; one that contradicts a terminal status served before it is held (run-status-consistent)',
  // The snapshot (docs/wire.md §5.4).
  'wire-altered-route-snapshot-200-owner-subject':
    'no clause fixes its form: owner.subject names the principal (docs/wire.md §5.4 owner{tenant, workspace?, subject})',
  'wire-dropped-route-snapshot-200-mode': SNAPSHOT_UNFIXED('mode'),
  'wire-altered-route-snapshot-200-mode': SNAPSHOT_UNFIXED('mode'),
  'wire-dropped-route-snapshot-200-agentid': SNAPSHOT_UNFIXED('agentId'),
  'wire-altered-route-snapshot-200-agentid': SNAPSHOT_UNFIXED('agentId'),
  'wire-dropped-route-snapshot-200-evalsuiteref': SNAPSHOT_UNFIXED('evalSuiteRef'),
  'wire-altered-route-snapshot-200-evalsuiteref': SNAPSHOT_UNFIXED('evalSuiteRef'),
  'wire-dropped-route-snapshot-200-createdat': SNAPSHOT_UNFIXED('createdAt'),
  'wire-dropped-route-snapshot-200-updatedat': SNAPSHOT_UNFIXED('updatedAt'),
  'wire-dropped-route-snapshot-200-eventlogschemaversion':
    'no clause fixes its presence: docs/wire.md §5.4 lists eventLogSchemaVersion in the upstream snapshot, which run-snapshot.schema.json does not require',
  'wire-plus-one-route-snapshot-200-eventlogschemaversion': 'no clause fixes its value: docs/wire.md §5.4 lists eventLogSchemaVersion with no value',
  // Event envelopes (docs/wire.md §5.1), in every read form alike.
  ...Object.fromEntries(
    SERVED_TYPES.flatMap((type) => [
      [
        `wire-altered-envelope-${type}-eventid`,
        'no defect: an eventId is minted by the host (docs/wire.md §1.3) and opaque; another id in its pattern, unique in the run and the same in every read form, is one it may mint',
      ],
      [`wire-plus-one-envelope-${type}-schemaversion`, 'no clause fixes its value: docs/wire.md §5.1 asks schemaVersion to be an integer ≥ 1'],
    ]),
  ),
  'wire-dropped-envelope-agent-tool-returned-causationid':
    'no defect: causationId is optional (docs/wire.md §5.1); a tool return pairs with its call by callId (docs/wire.md §6.2), which is checked',
  'wire-altered-envelope-agent-tool-returned-causationid':
    'no clause fixes its value: docs/wire.md §5.1 lists causationId with no meaning; a tool return pairs with its call by callId (docs/wire.md §6.2), which is checked',
  'wire-altered-envelope-run-started-type':
    'no clause the harness holds: a consumer must not fail on an event type it does not know (docs/wire.md §5.1), and no clause of RFC 0081/0244/0252 reads run.started',
};
