// An SSE frame is parsed once: the route step's frame check (lib/routes/frames.ts) parses it as the
// chunk arrives, and the reader of the same stream (lib/client/events.ts) takes that value through
// the recorder instead of parsing the text again. Held here: the value handed on is the frame's,
// taken once, in order, only from the chunk told last; frames the check did not parse (not JSON,
// too deep) are not handed on; and a whole read through a recording client reads the same events
// as one through a client with no recorder. The text is decoded once too: the reader takes each
// chunk's text as the route step decoded it (`takeText`), a character split between chunks whole
// in the later one, and what the decoder holds at the end of the body.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../lib/client/http.ts';
import { readRunEvents } from '../lib/client/events.ts';
import type { ExchangeRecorder } from '../lib/client/recorder.ts';
import { ExchangeLog } from '../lib/routes/exchanges.ts';

const PROJECTED = 'tenant-a~2F0123456789abcdef';
const RUN = 'tenant-a/0123456789abcdef';

const event = (sequence: number, type = 'node.started') => ({
  eventId: `evt-${String(sequence).padStart(16, '0')}`,
  runId: RUN,
  type,
  payload: {},
  timestamp: '2026-01-01T00:00:00Z',
  sequence,
  schemaVersion: 1,
});
const frame = (data: unknown, id?: number) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;

function openStream(log: ExchangeLog) {
  const record = log.begin({ method: 'GET', url: `http://h.test/runs/${PROJECTED}/events?streamMode=debug`, headers: {}, stream: true });
  record.headers(200, { 'content-type': 'text/event-stream' });
  return record;
}

describe('an SSE frame handed from the route step to the reader', () => {
  it('is the parsed frame, taken once and in order, from the chunk told last only', () => {
    const record = openStream(new ExchangeLog('http://h.test'));
    const [first, second] = [JSON.stringify(event(0)), JSON.stringify(event(1))];
    record.chunk(new TextEncoder().encode(`data: ${first}\n\ndata: ${second}\n\ndata: {"half`));
    expect(record.takeFrame?.(second)).toEqual(event(1));
    // Taken past: the first frame is not handed on any more, nor the second a second time.
    expect(record.takeFrame?.(first)).toBeUndefined();
    expect(record.takeFrame?.(second)).toBeUndefined();
    const whole = `{"half":true}`;
    record.chunk(new TextEncoder().encode(`":true}\n\n`));
    expect(record.takeFrame?.(whole)).toEqual({ half: true });
    record.chunk(new TextEncoder().encode(`data: ${first}\n\n`));
    record.chunk(new TextEncoder().encode(': keep-alive\n\n'));
    // A frame of an earlier chunk is let go when the next chunk arrives.
    expect(record.takeFrame?.(first)).toBeUndefined();
  });

  it('is not made of a frame the check did not parse: not JSON, or nested too deep', () => {
    const record = openStream(new ExchangeLog('http://h.test'));
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    record.chunk(new TextEncoder().encode(`data: {not json\n\ndata: ${deep}\n\n`));
    expect(record.takeFrame?.('{not json')).toBeUndefined();
    expect(record.takeFrame?.(deep)).toBeUndefined();
  });

  it('is let go when the stream ends', () => {
    const record = openStream(new ExchangeLog('http://h.test'));
    const text = JSON.stringify(event(0));
    record.chunk(new TextEncoder().encode(`data: ${text}\n\n`));
    record.end({ by: 'harness' });
    expect(record.takeFrame?.(text)).toBeUndefined();
  });
});

describe("a stream's text handed from the route step to the reader", () => {
  it('is the text of the chunk told last, taken once, a split character whole in the later chunk', () => {
    const record = openStream(new ExchangeLog('http://h.test'));
    const bytes = new TextEncoder().encode('data: "é😀"');
    record.chunk(bytes.subarray(0, 8)); // `data: "` and the first byte of é
    expect(record.takeText?.()).toBe('data: "');
    expect(record.takeText?.()).toBeUndefined();
    record.chunk(bytes.subarray(8, 11)); // the rest of é, the first two bytes of 😀
    expect(record.takeText?.()).toBe('é');
    record.chunk(bytes.subarray(11));
    expect(record.takeText?.()).toBe('😀"');
    // What the decoder holds when the body ends: a character cut short is U+FFFD.
    record.chunk(new Uint8Array([0xe2, 0x82]));
    expect(record.takeText?.()).toBe('');
    expect(record.takeText?.(true)).toBe('\ufffd');
  });

  it('is not given for a stream the route step does not read frame by frame', () => {
    const record = new ExchangeLog('http://h.test').begin({ method: 'GET', url: `http://h.test/runs/${PROJECTED}/events`, headers: {}, stream: true });
    record.headers(400, { 'content-type': 'application/json' });
    record.chunk(new TextEncoder().encode('{"error":"unsupported_stream_mode"}'));
    expect(record.takeText?.()).toBeUndefined();
    expect(record.takeText?.(true)).toBeUndefined();
  });
});

/** A host answering every request with `body` as an event stream, `piece` bytes a write, `pauseMs` between writes (0: none). */
async function streamingHost(body: string | Buffer, piece: number, pauseMs: number): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let at = 0; at < body.length; at += piece) {
      res.write(typeof body === 'string' ? body.slice(at, at + piece) : body.subarray(at, at + piece));
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The run's log read over SSE from `baseUrl` by a client recording into `recorder`, or by one with none. */
async function readThrough(baseUrl: string, recorder?: ExchangeRecorder) {
  const client = createClient({ baseUrl, apiKey: 'k', ...(recorder === undefined ? {} : { recorder }) });
  try {
    return await readRunEvents(client, RUN, { deadlineMs: 10_000, transport: 'sse' });
  } finally {
    await client.close();
  }
}

describe('a read through a recording client', () => {
  let host: Awaited<ReturnType<typeof streamingHost>>;
  beforeAll(async () => {
    // Frames split across chunks, a batch, a repeated frame and a frame that is not JSON.
    const body = [
      frame(event(0), 0),
      frame(event(1), 1),
      `event: batch\ndata: ${JSON.stringify([event(2), event(3)])}\n\n`,
      frame(event(3), 3),
      'data: {oops\n\n',
      frame(event(4, 'run.completed'), 4),
    ].join('');
    host = await streamingHost(body, 37, 0);
  });
  afterAll(() => host.close());

  it('reads the same events, and the same reason, as a client with no recorder', async () => {
    const log = new ExchangeLog(host.baseUrl);
    const [plain, recorded] = [await readThrough(host.baseUrl), await readThrough(host.baseUrl, log)];
    expect(recorded).toEqual(plain);
    expect(recorded.events.map((e) => (e as { sequence: number }).sequence)).toEqual([0, 1, 2, 3, 4]);
    expect(log.exchanges[0]?.frames?.seen).toBe(7);
  });
});

describe('a read through a recording client, its characters split between chunks', () => {
  let host: Awaited<ReturnType<typeof streamingHost>>;
  beforeAll(async () => {
    // Frames whose data holds characters of two, three and four bytes, sent a few bytes at a time
    // so that chunks end inside characters, with a pause between pieces so that each arrives as a
    // chunk of its own; the last frame ends its lines with a bare CR.
    const body = Buffer.from(
      [frame({ ...event(0), payload: { note: 'é€😀' } }, 0), frame({ ...event(1, 'run.completed'), payload: { note: '😀😀' } }, 1).replaceAll('\n', '\r')].join(
        '',
      ),
    );
    host = await streamingHost(body, 5, 2);
  });
  afterAll(() => host.close());

  it('reads the text as the route step decoded it, the same events as a client with no recorder', async () => {
    // The route step's log, counting the texts the reader takes from it.
    const log = new ExchangeLog(host.baseUrl);
    let taken = 0;
    const counting: ExchangeRecorder = {
      begin(request) {
        const record = log.begin(request);
        return {
          ...record,
          takeText: (end) => {
            const text = record.takeText?.(end);
            if (text !== undefined) taken++;
            return text;
          },
        };
      },
    };
    const [plain, recorded] = [await readThrough(host.baseUrl), await readThrough(host.baseUrl, counting)];
    expect(recorded).toEqual(plain);
    expect(recorded.events.map((e) => (e as { payload: { note: string } }).payload.note)).toEqual(['é€😀', '😀😀']);
    expect(taken).toBeGreaterThan(10);
  });
});
