// The pass-through of the tests' loopback proxies: one request to `upstream`, its answer piped
// back unchanged; a lost upstream drops the client connection.

import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

export function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const onward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  onward.on('error', () => res.destroy());
  req.pipe(onward);
}
