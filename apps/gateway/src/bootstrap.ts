/** Builds the gateway's Nest application on Fastify, with request ids and structured logs. */
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { TrawlConfig } from '#config';
import { MAX_URL_LENGTH } from '#contracts';
import { createLogger, PinoNestLogger } from '#platform';
import { GatewayModule } from './gateway.module.js';
import { recordHttpMetrics } from './http/http-metrics.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { QueueDashboardModule } from './admin/queue-dashboard.module.js';
import { ConsoleModule } from './console/console.module.js';
import { ErrorShapes } from './http/error-shapes.js';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.js';
import { clientErrorHandler, contractErrorBody, expectationFailed, frameworkErrors, refuseConnect, requireHostHeader } from './http/low-level-errors.js';

/** Routes whose JSON body carries a list of URLs (the others keep the 64 KiB bound). */
const LARGE_BODY_ROUTES = new Set(['/batches']);

export async function createGatewayApp(config: TrawlConfig, extraModules: unknown[] = []): Promise<NestFastifyApplication> {
  // One pino instance for Fastify's lines and Nest's, so every line has the same shape.
  const log = createLogger(config.LOG_LEVEL, 'trawl');
  const adapter = new FastifyAdapter({
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    clientErrorHandler,
    frameworkErrors,
    // Checked by requireHostHeader instead, so the 400 has the contract's body.
    http: { requireHostHeader: false },
    loggerInstance: log,
    // Fastify's two lines per request stay below info: Trawl writes its own one line per request at info.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL === 'silent' || config.LOG_LEVEL === 'info' }),
  });
  recordHttpMetrics(adapter.getInstance());
  // A batch's list of URLs is the one body that may be large: its routes take as many URLs as BATCH_MAX_URLS allows.
  const batchBodyLimit = Math.min(64 * 1024 * 1024, config.BATCH_MAX_URLS * (MAX_URL_LENGTH + 16) + 64 * 1024);
  adapter.getInstance().addHook('onRoute', (route) => {
    if (LARGE_BODY_ROUTES.has(route.url)) route.bodyLimit = batchBodyLimit;
  });
  adapter.getInstance().addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  adapter.getInstance().addHook('onRequest', requireHostHeader);
  const root = GatewayModule.forRoot(config);
  root.imports = [...(root.imports ?? []), MetricsModule, QueueDashboardModule, ConsoleModule];
  root.imports = [...(root.imports ?? []), ...(extraModules as NonNullable<typeof root.imports>)];
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: config.LOG_LEVEL === 'silent' ? false : new PinoNestLogger(log),
    abortOnError: false,
  });
  const shapes = app.get(ErrorShapes);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request, reply, payload) => {
      const rewritten = contractErrorBody(reply.statusCode, payload);
      if (rewritten === null) return payload;
      void reply.header('content-type', 'application/json; charset=utf-8');
      return shapes.for(request.url)?.rewrite(rewritten) ?? rewritten;
    });
  app.getHttpServer().on('checkExpectation', expectationFailed).on('connect', refuseConnect);
  return app;
}

export async function listen(app: INestApplication, config: TrawlConfig): Promise<string> {
  await app.listen(config.PORT, config.HOST);
  return app.getUrl();
}
