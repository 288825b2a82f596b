// The one error a harness mistake throws: a missing fixture, a schema that does
// not load, a malformed base URL, a leg declared twice. The runner files it as `blocked` with its
// "Test bug: …" message, never as the host's `executed-fail`. This module imports nothing, so
// every lib module can throw it without an import cycle.

/** Thrown by harness misuse; never recorded as the host's fault. */
export class TestBug extends Error {
  constructor(message: string) {
    super(`Test bug: ${message}`);
    this.name = 'TestBug';
  }
}
