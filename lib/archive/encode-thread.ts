// The archive made on a thread of its own (./encode-worker.ts), so that the command's thread,
// which carries a certification from end to end, does not build, serialize and check it after
// the legs. The recorder hands the thread its exchanges as they end, in batches while the legs
// run and the rest once they are over (ArchiveRecorder.handOff); the thread makes and serializes
// each exchange's entry as it comes, on the machine's other core. With the last hand-off and the
// run's settings it joins the entries into the archive's text, checks it for a secret and
// compresses it, while the command prints the rows and builds, signs and judges the bundle
// (bench/RESULTS.md "npm start (branch startpipe)"). The thread makes the same entries from the same data
// with a redactor of the same secrets, so the archive is the one the command's thread would make
// (test/archive-thread.test.ts).

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Redactor } from '../redact.ts';
import { archiveTextOf, entryOf } from './entry.ts';
import type { ArchiveSettings } from './har.ts';
import type { ArchiveRecorder, HandOff } from './recorder.ts';
import type { KeyRoles } from './request-key.ts';

/** One hand-off to the archive's thread. */
export interface ToArchiveThread {
  exchanges: HandOff;
  /** The run's secrets (Redactor.secrets) and the keys' roles. */
  secrets: readonly string[];
  roles: KeyRoles;
  /** They changed since the last hand-off: every exchange ended so far comes again, to be made under them. */
  again: boolean;
  /** The command's performance.now() at the hand-off: the end of an exchange still open. */
  now: number;
  /** With a last hand-off: where the archive goes, the settings it records, and which last hand-off this is. */
  finish?: ArchiveFinish & { round: number };
}

/** What the archive needs besides its exchanges. */
export interface ArchiveFinish {
  path: string;
  settings: ArchiveSettings;
}

/** The thread's answer to a last hand-off: the file's bytes, or none when a secret would appear in its text. */
export interface FromArchiveThread {
  round: number;
  bytes: Uint8Array | undefined;
}

/** The entries made of the hand-offs so far, each serialized (JSON) in its place in the archive. */
export class ArchiveEntries {
  readonly #entries: string[] = [];
  #under: { roles: KeyRoles; redactor: Redactor } | undefined;

  /** Makes the entries of a hand-off; the redactor they were made with. */
  take(message: ToArchiveThread): Redactor {
    // After a change every exchange handed off before comes again (ArchiveRecorder.forget), so each
    // entry made under the old secrets is made anew.
    if (this.#under === undefined || message.again) this.#under = { roles: message.roles, redactor: new Redactor(message.secrets) };
    const { roles, redactor } = this.#under;
    for (const [at, exchange] of message.exchanges) this.#entries[at] = JSON.stringify(entryOf(exchange, roles, redactor, message.now));
    return redactor;
  }

  /** The archive's text, once every exchange was handed off. */
  text(settings: ArchiveSettings, redactor: Redactor): string {
    return archiveTextOf(this.#entries, settings, redactor);
  }
}

/**
 * Exchanges ended between two hand-offs while the legs run: few enough that the thread keeps up
 * with the legs, enough that a message's own cost stays small beside the copy of its exchanges.
 */
const BATCH = 32;

/** What the thread's exchanges come from. */
interface ArchiveSource {
  recorder: ArchiveRecorder;
  redactor: Redactor;
  roles: KeyRoles;
}

/** An answer of the thread, awaited or not yet. */
interface Answer {
  promise: Promise<FromArchiveThread>;
  resolve: (answer: FromArchiveThread) => void;
  reject: (error: Error) => void;
}

function answerOf(): Answer {
  const answer = {} as Answer;
  answer.promise = new Promise((resolve, reject) => Object.assign(answer, { resolve, reject }));
  answer.promise.catch(() => {}); // awaited by encode when its round is the one used
  return answer;
}

/** The archive's thread, from the command's side. */
export class ArchiveThread {
  readonly #worker: Worker;
  #source: ArchiveSource | undefined;
  /** The answer to each last hand-off, by its round. */
  readonly #answers = new Map<number, Answer>();
  #rounds = 0;
  /** The secrets and roles of the last hand-off. */
  #secretsOf: string | undefined;
  /** A last hand-off made as the legs ended (legsDone): what it was made of, and its round. */
  #early: { size: number; made: string; round: number } | undefined;
  #endedSince = 0;
  #due = false;
  #finished = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
    // Unused, it keeps nothing alive; awaited, it is held (encode).
    worker.unref();
    worker.on('message', (answer: FromArchiveThread) => this.#answers.get(answer.round)?.resolve(answer));
    const fail = (error: Error) => {
      for (const answer of this.#answers.values()) answer.reject(error);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the archive's thread ended (exit code ${code}) before it answered`)));
  }

  /**
   * The thread, started before the run waits for its host to start (`run`), so that it starts on
   * the core the command's thread leaves idle then; from the build only (the entry is dist/'s
   * module): a worker thread does not inherit the loader that reads the TypeScript sources, so
   * from them the archive is made on the command's thread. So it is too on a machine of one core,
   * where a second thread would only add its own start to the run.
   */
  static start(): ArchiveThread | undefined {
    if (!import.meta.url.endsWith('.js') || availableParallelism() < 2) return undefined;
    return new ArchiveThread(new Worker(new URL('./encode-worker.js', import.meta.url)));
  }

  /** The exchanges the thread is handed, once the run knows its keys. */
  watch(source: ArchiveSource): this {
    this.#source = source;
    source.recorder.whenEnded(() => this.#ended());
    return this;
  }

  /** A batch is handed off on the turn after its last exchange ended, not inside the client's callback. */
  #ended(): void {
    this.#endedSince += 1;
    if (this.#finished || this.#due || this.#endedSince < BATCH) return;
    this.#due = true;
    setImmediate(() => {
      this.#due = false;
      if (!this.#finished) this.#handOff();
    });
  }

  /**
   * Hands the thread every exchange ended since the last hand-off (ArchiveRecorder.handOff), or
   * with `finish` every one not handed off yet, and asks for the archive: the round of its answer.
   */
  #handOff(finish?: ArchiveFinish): number | undefined {
    const { recorder, redactor, roles } = this.#source!;
    this.#endedSince = 0;
    const under = JSON.stringify([redactor.secrets, roles]);
    const again = this.#secretsOf !== undefined && this.#secretsOf !== under;
    this.#secretsOf = under;
    if (again) recorder.forget();
    const round = finish === undefined ? undefined : ++this.#rounds;
    if (round !== undefined) this.#answers.set(round, answerOf());
    const message: ToArchiveThread = {
      exchanges: recorder.handOff(finish !== undefined),
      secrets: redactor.secrets,
      roles,
      again,
      now: performance.now(),
      ...(finish === undefined || round === undefined ? {} : { finish: { ...finish, round } }),
    };
    this.#worker.postMessage(message);
    return round;
  }

  /** What a last hand-off is made of besides its exchanges: equal, the archive is the same. */
  #made(finish: ArchiveFinish): string {
    return JSON.stringify([finish, this.#source!.redactor.secrets, this.#source!.roles]);
  }

  /**
   * The legs are over: when no exchange is open, the last hand-off goes now, so that the thread
   * makes the archive while the command compares the served facts. It stands if no exchange begins
   * before `encode` and `finish` is the same then (an exchange once ended never changes again);
   * else `encode` hands off once more. With an exchange open (a leg abandoned at its deadline,
   * still reading), this is an ordinary hand-off.
   */
  legsDone(finish: ArchiveFinish): void {
    const { recorder } = this.#source!;
    if (recorder.allEnded()) {
      const round = this.#handOff(finish)!;
      this.#early = { size: recorder.size, made: this.#made(finish), round };
    } else this.#handOff();
  }

  /** The archive's bytes the thread answers (undefined: refused, a secret would appear in it). */
  async encode(finish: ArchiveFinish): Promise<Buffer | undefined> {
    this.#finished = true;
    const early = this.#early;
    const round = early !== undefined && early.size === this.#source!.recorder.size && early.made === this.#made(finish) ? early.round : this.#handOff(finish)!;
    this.#worker.ref();
    try {
      const { bytes } = await this.#answers.get(round)!.promise;
      return bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } finally {
      this.close();
    }
  }

  /** Ends the thread: its answer is in, or the run will not use it. */
  close(): void {
    this.#finished = true;
    this.#worker.terminate().catch(() => {});
  }
}
