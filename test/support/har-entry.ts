// One archived exchange as the recorder writes it (lib/archive/har.ts), for tests that hand-write
// an archive: a GET of `path` on 127.0.0.1:1 answered 200 with `text`. A stream keeps its body
// chunk by chunk too, ended by the host; `sentBy` names the leg or shared work that sent it
// (lib/client/sender.ts), left out as an archive written before senders were recorded.

import type { HarEntry } from '../../lib/archive/har.ts';

export function harEntry(path: string, text: string, options: { stream?: boolean; sentBy?: string } = {}): HarEntry {
  const { stream = false, sentBy } = options;
  return {
    ...(sentBy === undefined ? {} : { _sentBy: sentBy }),
    startedDateTime: '2026-12-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'GET',
      url: `http://127.0.0.1:1${path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: text.length, mimeType: stream ? 'text/event-stream' : 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
      ...(stream
        ? {
            _chunks: [
              { time: 0, text: text.slice(0, 10) },
              { time: 1, text: text.slice(10) },
            ],
            _endedBy: 'host' as const,
          }
        : {}),
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}
