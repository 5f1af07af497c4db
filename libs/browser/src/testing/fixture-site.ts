/**
 * A loopback `node:http` site for render tests and benchmarks: a table of path → handler, a log of every request
 * (path, headers) so tests can assert what the browser actually fetched, and helpers to await a request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FixtureHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LoggedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
}

export class FixtureSite {
  readonly requests: LoggedRequest[] = [];
  /** WebSocket upgrade attempts seen. */
  upgrades = 0;
  private readonly routes = new Map<string, FixtureHandler>();
  private readonly server: http.Server;
  private readonly waiters: { path: string; resolve: (r: LoggedRequest) => void }[] = [];
  private readonly held = new Set<http.ServerResponse>();
  private port = 0;

  constructor(private readonly host = '127.0.0.1') {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('upgrade', (_req, socket) => {
      this.upgrades++;
      socket.destroy();
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, this.host, () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  get portNumber(): number {
    return this.port;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Serves `body` as HTML (or with the given content type) at `path`. */
  page(path: string, body: string, status = 200, contentType = 'text/html; charset=utf-8'): this {
    return this.route(path, (_req, res) => {
      res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
      res.end(body);
    });
  }

  /** A request to `path` that is never answered (until the site closes). */
  hang(path: string): this {
    return this.route(path, (_req, res) => {
      this.held.add(res);
    });
  }

  redirect(path: string, location: string, status = 302): this {
    return this.route(path, (_req, res) => {
      res.writeHead(status, { location });
      res.end();
    });
  }

  route(path: string, handler: FixtureHandler): this {
    this.routes.set(path, handler);
    return this;
  }

  hits(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  hitsUnder(prefix: string): number {
    return this.requests.filter((r) => r.path.startsWith(prefix)).length;
  }

  /** Resolves when a request for `path` arrives (or has arrived). */
  waitForRequest(path: string): Promise<LoggedRequest> {
    const seen = this.requests.find((r) => r.path === path);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ path, resolve }));
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    const logged = { path, headers: req.headers };
    this.requests.push(logged);
    for (const waiter of this.waiters.filter((w) => w.path === path)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(logged);
    }
    const handler = this.routes.get(path);
    if (handler) {
      handler(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Not found</title></head><body><h1>No such page</h1></body></html>');
  }
}

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 24 || !png.subarray(0, 8).equals(signature) || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A 1×1 transparent PNG, for image fixtures. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
