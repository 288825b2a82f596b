// The pass-through of the tests' and the bench's loopback proxies: one request to `upstream` with
// the client's end-to-end headers (the connection's own are not forwarded, RFC 9110 §7.6.1:
// hosts/honest-variants/wire.ts `endToEnd`), its answer piped back unchanged; a lost upstream
// drops the client connection.

import { type Agent, type ClientRequest, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { endToEnd } from '../../hosts/honest-variants/wire.ts';

/** The request `req` sent on to `upstream`, without its body: the caller writes or pipes it. */
export function upstreamRequest(upstream: URL, req: IncomingMessage, onAnswer: (answer: IncomingMessage) => void, agent?: Agent): ClientRequest {
  return httpRequest(
    {
      host: upstream.hostname,
      port: upstream.port,
      path: req.url,
      method: req.method,
      headers: endToEnd(req.headers),
      ...(agent === undefined ? {} : { agent }),
    },
    onAnswer,
  );
}

export function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const onward = upstreamRequest(upstream, req, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  onward.on('error', () => res.destroy());
  req.pipe(onward);
}
