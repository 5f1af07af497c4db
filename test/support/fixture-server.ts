/** A loopback web server for tests: routes are plain node:http handlers. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FixtureServer {
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startFixtureServer(routes: Record<string, Route>): Promise<FixtureServer> {
  const hits = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
      return;
    }
    Promise.resolve(route(req, res)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const html = (body: string, title = 'Fixture') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

export const ARTICLE = html(
  `<nav><a href="/">Home</a> <a href="/about">About</a></nav>
   <main><article><h1>Deep sea trawling</h1>
   <p>Trawling is a method of fishing that involves pulling a fishing net through the water behind one or more boats.
   The net used for trawling is called a trawl. This principle requires netting bags towed through water to catch
   different species of fish or sometimes targeted species.</p>
   <p>Trawls are often classified by the depth at which they operate, from the surface to the sea floor, and the
   industry has debated its effects on the ocean floor for many decades.</p>
   <p><a href="/more">Read more about nets</a></p></article></main>
   <footer>Copyright fixture</footer>`,
  'Deep sea trawling',
);
