// The hook through which every exchange a client makes can be recorded (lib/archive/recorder.ts
// builds the certification's archive on it): the request as sent, the response as read, chunk by
// chunk for a stream, and when each part happened. A client without a recorder behaves exactly
// as one with none; a recorder only watches, it never changes what is sent or read (the frames
// it hands a stream's reader, `takeFrame`, are what the reader would have parsed itself, and the
// text, `takeText`, what it would have decoded).

export interface SentRequest {
  method: string;
  /** The absolute URL, query included. */
  url: string;
  /** Lower-case names, as the client sends them (Authorization included: the recorder redacts). */
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Opened with `stream` (an SSE read), not `request`. */
  stream: boolean;
  /** performance.now() when it was sent, when that was before the client was told (lib/client/early-discovery.ts). */
  sentAt?: number;
  /** For a read of run events (a stream): the most run events the client reads from it before it stops reading. */
  runEvents?: number;
  /** The leg or shared work that sent it (./sender.ts); absent for the certification's own requests. */
  sentBy?: string;
}

/** Who ended a stream: the host closed it, or the harness stopped reading. */
export type StreamEnd = 'host' | 'harness';

/** One exchange being recorded. After `end` or `fail`, further calls are ignored. */
export interface ExchangeRecord {
  /** The status line and headers arrived. */
  headers(status: number, headers: Record<string, string>): void;
  /** One body chunk of a stream, as it arrived. */
  chunk(bytes: Uint8Array): void;
  /**
   * A `request` body read whole (`text`, and `json`, the text as the client parsed it, when it
   * is JSON), or a stream ended (`by`).
   */
  end(outcome: { text: string; json?: unknown } | { by: StreamEnd }): void;
  /** The exchange ended in a transport error (the error the caller sees). */
  fail(error: Error): void;
  /**
   * A stream's SSE frame data as the recorder parsed it from the chunk last told, taken once;
   * undefined when it did not (lib/routes/frames.ts). The reader of the same stream takes it
   * instead of parsing the frame again: the value JSON.parse gives for that text, not too deep.
   */
  takeFrame?(data: string): unknown;
  /**
   * The text of the chunk told last, as the recorder decoded it (UTF-8, a character split between
   * two chunks whole in the later), taken once; with `end`, what its decoder still holds when the
   * body ends. Undefined when it does not decode the stream: it decodes all of a stream or none of
   * it. The reader of the same stream takes it instead of decoding the chunk a second time.
   */
  takeText?(end?: boolean): string | undefined;
}

export interface ExchangeRecorder {
  begin(request: SentRequest): ExchangeRecord;
}
