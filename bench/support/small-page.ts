/** The small page (~1.6 KB) the `/crawl` throughput benchmarks fetch, served keep-alive on 127.0.0.1. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SMALL_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench page</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>A small page</h1>
${'<p>Trawling is a method of fishing that involves pulling a fishing net through the water behind one or more boats.</p>'.repeat(12)}
</article></main><footer>footer</footer></body></html>`;

/** Serves SMALL_PAGE at every path; `url` is `/page` on it. */
export async function startSmallPageSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SMALL_PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
