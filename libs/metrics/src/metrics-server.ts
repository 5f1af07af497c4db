/**
 * METRICS_PORT: the metrics on a port of their own, without authentication, for Prometheus scrapers (keep the port
 * inside the cluster). One server per process, however many modules ask for it; it stops when the last one is done.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from './metrics.js';

let server: { ready: Promise<Server>; users: number } | null = null;

export async function startMetricsServer(port: number, host: string): Promise<{ port: number; stop: () => Promise<void> }> {
  if (!server) {
    const http = createServer((request, response) => {
      if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      metrics.text().then(
        (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n'),
      );
    });
    const ready = new Promise<Server>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => resolve(http));
    });
    server = { ready, users: 0 };
  }
  const entry = server;
  entry.users += 1;
  const http = await entry.ready.catch((error: unknown) => {
    server = null;
    throw error;
  });
  let stopped = false;
  return {
    port: (http.address() as AddressInfo).port,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      entry.users -= 1;
      if (entry.users > 0) return;
      server = null;
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
