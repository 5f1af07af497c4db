/** Builds the gateway's Nest application on Fastify, with request ids, structured logs and the request log. */
import { ConsoleLogger, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { RequestLogWriter } from '#billing';
import type { TrawlConfig } from '#config';
import { REDACT_PATHS } from '#platform';
import { GatewayModule } from './gateway.module.js';
import { outcomeOf } from './http/request-context.js';

const UNLOGGED = /^\/(health|admin)(\/|$)/;

export function nestLogger(config: TrawlConfig): ConsoleLogger | false {
  if (config.LOG_LEVEL === 'silent') return false;
  const levels = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  const upTo = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 }[config.LOG_LEVEL];
  return new ConsoleLogger({ json: true, logLevels: [...levels.slice(0, upTo + 1)] });
}

export async function createGatewayApp(config: TrawlConfig, extraModules: unknown[] = []): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    genReqId: () => randomUUID(),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    logger:
      config.LOG_LEVEL === 'silent' || config.LOG_LEVEL === 'info'
        ? false // request lines at info would dominate; the request log table keeps them
        : { level: config.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
  });
  const root = GatewayModule.forRoot(config);
  root.imports = [...(root.imports ?? []), ...(extraModules as NonNullable<typeof root.imports>)];
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: nestLogger(config),
    abortOnError: false,
  });
  const logWriter = app.get(RequestLogWriter);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?')[0];
    if (!UNLOGGED.test(path)) {
      const outcome = outcomeOf(request);
      logWriter.write({
        id: request.id,
        accountId: outcome.principal?.accountId ?? null,
        endpoint: (request.routeOptions.url ?? path).slice(0, 64),
        status: reply.statusCode,
        credits: outcome.credits ?? 0,
        durationMs: Math.round(reply.elapsedTime),
        errorCode: outcome.errorCode ?? null,
        createdAt: new Date(),
      });
    }
    done();
  });
  return app;
}

export async function listen(app: INestApplication, config: TrawlConfig): Promise<string> {
  await app.listen(config.PORT, config.HOST);
  return app.getUrl();
}
