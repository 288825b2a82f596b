// The releases of the scripted agent's hold step (CONTRACT §3, §5): the harness releases a key
// through `POST /conformance/seams/holds/{key}/release`, and every hold on that key in the
// caller's tenant waiting then passes; with none waiting, the next hold to reach the key passes
// at once, so a release that comes before its hold is never lost to a race. A release is spent
// once it lets a hold pass, so a later run holding on the same key is held again.

/** The releases one host keeps waiting for their hold; the oldest go first past this many, so memory stays bounded. */
const MAX_RELEASES = 10_000;

export class HoldReleases {
  readonly #released = new Set<string>();
  readonly #waiting = new Map<string, Set<() => void>>();

  /** Releases `key` for `tenant`: every hold waiting on it passes, or else the next one to reach it. */
  release(tenant: string, key: string): void {
    const name = `${tenant}\u0000${key}`;
    const waiting = this.#waiting.get(name);
    if (waiting !== undefined && waiting.size > 0) {
      for (const wake of [...waiting]) wake();
      return;
    }
    this.#released.add(name);
    if (this.#released.size > MAX_RELEASES) this.#released.delete(this.#released.values().next().value as string);
  }

  /**
   * Resolves once `key` is released for `tenant`, after `timeoutMs`, or when `stop` is called
   * (the run is cancelled, the host closes); `stop` is handed to `onStop` for that.
   */
  wait(tenant: string, key: string, timeoutMs: number, onStop: (stop: () => void) => void): Promise<void> {
    const name = `${tenant}\u0000${key}`;
    if (this.#released.delete(name)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiting = this.#waiting.get(name) ?? new Set<() => void>();
      this.#waiting.set(name, waiting);
      const done = (): void => {
        clearTimeout(timer);
        waiting.delete(done);
        if (waiting.size === 0 && this.#waiting.get(name) === waiting) this.#waiting.delete(name);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      waiting.add(done);
      onStop(done);
    });
  }
}
