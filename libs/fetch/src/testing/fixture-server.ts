/**
 * A loopback `node:http` server for tests and benchmarks of the fetch layer: routes by path, records what it
 * received, and closes every socket on shutdown so test files end promptly.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface FixtureServer {
  readonly port: number;
  readonly origin: string;
  /** Every request received, in order (method, path, headers). */
  readonly requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders }>;
  url(path: string): string;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 on an ephemeral port; unknown paths answer 404 text/html. */
export async function startFixtureServer(routes: Record<string, Route>): Promise<FixtureServer> {
  const requests: FixtureServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const route = routes[path.split('?')[0]];
    if (route) {
      route(req, res);
    } else {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not found</h1>');
    }
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    requests,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
