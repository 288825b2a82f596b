// Honest variants of RFC 0252 (recorded fixtures): choices the text leaves to a host that accepts
// fixtureRuns.

import type { HonestVariant } from './catalogue.ts';

export const RECORDED_VARIANTS: HonestVariant[] = [
  {
    name: 'fixture-errors-advertised',
    choice: 'fixtureErrors (RFC 0245) advertised: a source run with a failed or never-run call is usable, each such call derived as an isError entry',
    clause: 'RFC 0252 §C ("usable only on a host that also advertises fixtureErrors"), §D',
    shows: 'the host advertises fixtureErrors',
    options: { evalSuite: { fixtureErrors: true } },
  },
  {
    name: 'fork-keeps-erased-copy',
    choice: "the derived copy outlives its source's erasure: a fork of the eval run is still served, re-read from its recorded events",
    clause: "RFC 0252 Security (the copy SHOULD share the source's erasure; a fork whose copy is gone SHOULD be refused)",
    shows: 'the host keeps the derived copy',
    options: { hostBehaviour: { forkOf: () => 'recorded' } },
  },
  {
    name: 'replay-not-claimed',
    choice: 'no replay family: the host offers no fork, so the fork of an eval run is not met',
    clause: 'OpenWOP v2 runs.md §Surface (forkRun is gated on the replay family, an optional capability), docs/wire.md §5.5',
    shows: 'the host does not claim the replay family',
    options: { replay: false },
  },
];
