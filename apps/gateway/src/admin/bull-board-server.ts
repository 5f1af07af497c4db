/**
 * bull-board's server side on Trawl's Fastify, without @bull-board/fastify: that adapter pulls in @fastify/static
 * and @fastify/view, whose ESM-only dependencies Jest cannot load on Node 20 (require of ESM), and needs a template
 * engine for one page. This serves the same things: the UI's static files, its entry page (the template has only
 * `<%= %>` and `<%- %>` placeholders), and the board's JSON API routes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IServerAdapter } from '@bull-board/api/dist/types.js';
import type { FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';

type Routes = Parameters<IServerAdapter['setApiRoutes']>[0];
type EntryRoute = Parameters<IServerAdapter['setEntryRoute']>[0];
type ErrorHandler = Parameters<IServerAdapter['setErrorHandler']>[0];
type Queues = Parameters<IServerAdapter['setQueues']>[0];
type UIConfig = Parameters<IServerAdapter['setUIConfig']>[0];

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export class BullBoardServer implements IServerAdapter {
  private basePath = '';
  private staticRoute = '/static';
  private staticDir = '';
  private viewsDir = '';
  private entry?: EntryRoute;
  private errorHandler?: ErrorHandler;
  private routes: Routes = [];
  private queues?: Queues;
  private uiConfig: UIConfig = {};

  setBasePath(basePath: string): this {
    this.basePath = basePath;
    return this;
  }
  setQueues(queues: Queues): this {
    this.queues = queues;
    return this;
  }
  setViewsPath(viewPath: string): this {
    this.viewsDir = viewPath;
    return this;
  }
  setStaticPath(route: string, dir: string): this {
    this.staticRoute = route;
    this.staticDir = dir;
    return this;
  }
  setEntryRoute(route: EntryRoute): this {
    this.entry = route;
    return this;
  }
  setErrorHandler(handler: ErrorHandler): this {
    this.errorHandler = handler;
    return this;
  }
  setApiRoutes(routes: Routes): this {
    this.routes = routes;
    return this;
  }
  setUIConfig(config: UIConfig): this {
    this.uiConfig = config;
    return this;
  }

  /** Registers every route on `scope` (mount it under the base path). */
  register(scope: FastifyInstance): void {
    const entry = this.entry;
    const errorHandler = this.errorHandler;
    if (!entry || !errorHandler || !this.queues) throw new Error('createBullBoard() must configure the server first');
    const queues = this.queues;

    scope.get(`${this.staticRoute}/*`, async (request, reply) => {
      const relative = (request.params as { '*': string })['*'];
      const file = path.resolve(this.staticDir, relative);
      if (!file.startsWith(`${path.resolve(this.staticDir)}${path.sep}`)) return reply.code(404).send();
      const body = await readFile(file).catch(() => null);
      if (!body) return reply.code(404).send();
      return reply
        .type(CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=86400')
        .send(body);
    });

    for (const url of ([] as string[]).concat(entry.route)) {
      scope.route({
        method: entry.method.toUpperCase() as HTTPMethods,
        url,
        handler: async (_request, reply) => {
          const { name, params } = entry.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
          const template = await readFile(path.join(this.viewsDir, name), 'utf8');
          const html = template
            .replace(/<%=\s*(\w+)\s*%>/g, (_m, key: string) => escapeHtml(params[key] ?? ''))
            .replace(/<%-\s*(\w+)\s*%>/g, (_m, key: string) => params[key] ?? '');
          return reply.type('text/html; charset=utf-8').send(html);
        },
      });
    }

    for (const route of this.routes) {
      const methods = ([] as string[]).concat(route.method).map((m) => m.toUpperCase() as HTTPMethods);
      for (const url of ([] as string[]).concat(route.route)) {
        scope.route({
          method: methods,
          url,
          handler: async (request, reply: FastifyReply) => {
            const response = await route.handler({
              queues,
              uiConfig: this.uiConfig,
              params: request.params as Record<string, unknown>,
              query: request.query as Record<string, unknown>,
              body: (request.body ?? {}) as Record<string, unknown>,
              headers: request.headers as Record<string, string | undefined>,
            });
            return reply.code(response.status ?? 200).send(response.body);
          },
        });
      }
    }

    scope.setErrorHandler((error, _request, reply) => {
      const response = errorHandler(error as Error);
      return reply.code(response.status ?? 500).send(response.body);
    });
  }
}
