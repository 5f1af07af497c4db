/**
 * Serves the console's built files (dist/console, from `npm run build`) at /console/, and `GET /`: a browser is
 * sent to the console, any other client gets a JSON index of the API. Hashed files under /console/assets/ are
 * cached for a year (their names change with their content); the page itself is never cached, so a new build is
 * picked up at once. Every response carries the console's CSP and security headers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_HEADERS } from './security-headers.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The repository's root: the nearest directory above this file with a package.json (sources and dist/ alike). */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const CONSOLE_DIST = path.join(repoRoot(), 'dist', 'console');

/** Every built file, read once at boot (a few hundred KiB): serving them is a map lookup. */
function loadFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (!name.startsWith('.')) files.set(path.relative(dir, full).split(path.sep).join('/'), readFileSync(full));
    }
  };
  if (existsSync(path.join(dir, 'index.html'))) walk(dir);
  return files;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trawl console</title></head>
<body><main><h1>The console is not built</h1><p>Run <code>npm run build</code> (npm start does it for you).</p></main></body></html>`;

export interface ApiIndex {
  name: string;
  console: string;
  docs: string;
  openapi: string;
  mcp: string;
  health: string;
  endpoints: Array<{ method: string; path: string; summary: string }>;
}

export function registerConsoleAssets(fastify: FastifyInstance, index: ApiIndex, dir = CONSOLE_DIST): void {
  const files = loadFiles(dir);
  const send = (reply: FastifyReply, status: number, type: string, body: Buffer | string, cache: string) =>
    reply.code(status).headers(CONSOLE_HEADERS).header('content-type', type).header('cache-control', cache).send(body);
  const page = (reply: FastifyReply) => {
    const html = files.get('index.html');
    return html ? send(reply, 200, TYPES['.html'], html, 'no-cache') : send(reply, 503, TYPES['.html'], NOT_BUILT, 'no-store');
  };

  fastify.get('/', (request, reply) => {
    const accept = request.headers.accept ?? '';
    if (/\btext\/html\b/.test(accept)) return reply.redirect(index.console, 302);
    return reply.header('cache-control', 'no-cache').send(index);
  });
  // `/console/` too: the router ignores trailing slashes.
  fastify.get('/console', (_request, reply) => page(reply));
  fastify.get('/console/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const file = files.get(rest);
    if (file) {
      const immutable = rest.startsWith('assets/');
      return send(reply, 200, TYPES[path.extname(rest)] ?? 'application/octet-stream', file, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    }
    // A missing file is a 404; any other path is one of the console's pages (client-side routes).
    if (rest.startsWith('assets/') || path.extname(rest) !== '') return send(reply, 404, 'text/plain; charset=utf-8', 'Not found', 'no-store');
    return page(reply);
  });
}
