/**
 * The queue dashboard: bull-board for every Trawl queue at /admin/queues, behind the admin token. A browser logs in
 * once with the token (a form) and then holds an HttpOnly cookie derived from it (an HMAC, never the token itself);
 * scripts send `Authorization: Bearer $ADMIN_TOKEN`. Read-only unless QUEUE_DASHBOARD_ACTIONS=true. Off (404) when
 * ADMIN_TOKEN is unset, like the rest of the admin API.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { QueueName } from '#contracts';
import { REDIS } from '#platform';
import { AdminSession, SESSION_COOKIE } from './admin-session.js';
import { BullBoardServer } from './bull-board-server.js';

export const DASHBOARD_PATH = '/admin/queues';
const require = createRequire(import.meta.url);

@Module({})
export class QueueDashboardModule implements OnModuleInit, OnApplicationShutdown {
  private readonly queues: Queue[] = [];

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.ADMIN_TOKEN) return; // disabled: /admin/queues is an unknown route (404)
    const session = new AdminSession(this.config.ADMIN_TOKEN);
    const board = new BullBoardServer();
    board.setBasePath(DASHBOARD_PATH);
    for (const name of Object.values(QueueName)) {
      const queue = new Queue(name, { connection: this.redis, prefix: this.config.REDIS_PREFIX });
      queue.on('error', () => undefined);
      this.queues.push(queue);
    }
    createBullBoard({
      queues: this.queues.map((q) => new BullMQAdapter(q, { readOnlyMode: !this.config.QUEUE_DASHBOARD_ACTIONS })),
      serverAdapter: board,
      options: { uiConfig: { boardTitle: 'Trawl queues' }, uiBasePath: path.dirname(require.resolve('@bull-board/ui/package.json')) },
    });
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(
      async (scope) => {
        scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
          if (request.url.split('?')[0] === `${DASHBOARD_PATH}/login`) return;
          if (session.authorizes(request.headers)) return;
          if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) {
            return reply.redirect(`${DASHBOARD_PATH}/login`, 303);
          }
          return reply.code(401).send({ error: { code: 'UNAUTHORIZED', message: 'Invalid or missing admin token' } });
        });
        scope.get('/login', (_request, reply) => reply.type('text/html; charset=utf-8').send(loginPage(false)));
        scope.post('/login', (request, reply) => {
          // The login form posts application/x-www-form-urlencoded, which Nest's Fastify adapter already parses.
          const token = String((request.body as Record<string, unknown> | undefined)?.token ?? '');
          if (!session.matches(token)) return reply.code(401).type('text/html; charset=utf-8').send(loginPage(true));
          const secure = request.protocol === 'https' ? '; Secure' : '';
          return reply
            .header('set-cookie', `${SESSION_COOKIE}=${session.cookieValue()}; Path=${DASHBOARD_PATH}; HttpOnly; SameSite=Strict; Max-Age=43200${secure}`)
            .redirect(DASHBOARD_PATH, 303);
        });
        board.register(scope);
      },
      { prefix: DASHBOARD_PATH },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close().catch(() => undefined)));
  }
}

function loginPage(failed: boolean): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Trawl queues — sign in</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:4rem auto">
<h1>Trawl queues</h1>${failed ? '<p role="alert" style="color:#b00">That is not the admin token.</p>' : ''}
<form method="post" action="${DASHBOARD_PATH}/login">
<label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button></form></body></html>`;
}
