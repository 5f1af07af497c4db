/**
 * Every error leaves as `{ "error": { "code", "message" } }` — or in the shape a compatible API registered for its paths
 * (ErrorShapes: Firecrawl's under /v1/ and /v2/) —; internal details are logged, never returned.
 * Errors that ended a metered call were written to the request log by the call itself; the others (unknown key,
 * invalid parameter, unknown route) are logged here, so every API request has one row.
 */
import { randomUUID } from 'node:crypto';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestLogWriter, wasMetered } from '#billing';
import { ErrorCode, TrawlError, httpStatusOf } from '#contracts';
import { outageError } from '#platform/outage.js';
import { ErrorShapes, type DescribedError } from './error-shapes.js';
import { principalOf } from './principal.js';

/** Not API calls: health probes, the admin API, and the console's own pages and JSON (`/account`, `/console`). */
const UNLOGGED = /^\/(health|admin|account|console)(\/|$)/;
/** The request log's id is a uuid; a client's own x-request-id (any `[A-Za-z0-9._:-]`) is kept as its request id. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Retry-After on CONCURRENCY_LIMIT: a running call usually ends within seconds. */
export const CONCURRENCY_RETRY_AFTER_S = 2;
/** Retry-After on RATE_LIMITED (console sign-ins): a minute, well inside the failure window. */
export const RATE_LIMITED_RETRY_AFTER_S = 60;
/** Retry-After on CREDITS_EXHAUSTED when the period end is unknown: an hour. */
export const CREDITS_RETRY_AFTER_S = 3600;

/** Retry-After on SERVICE_UNAVAILABLE (Postgres or Redis restarting): a second. */
export const OUTAGE_RETRY_AFTER_S = 1;

/** Seconds a client should wait after a 429: a few for concurrency, until the period ends for credits. */
export function retryAfterSeconds(code: string, periodEnd: Date | undefined, now = Date.now()): number {
  if (code === ErrorCode.CONCURRENCY_LIMIT) return CONCURRENCY_RETRY_AFTER_S;
  if (code === ErrorCode.RATE_LIMITED) return RATE_LIMITED_RETRY_AFTER_S;
  if (periodEnd) return Math.max(1, Math.ceil((periodEnd.getTime() - now) / 1000));
  return CREDITS_RETRY_AFTER_S;
}

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(
    private readonly log: RequestLogWriter,
    private readonly shapes: ErrorShapes,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const described = this.describe(exception, request);
    const shape = this.shapes.for(request.url);
    const { status, body } = shape ? shape.answer(described, exception) : { status: described.status, body: { error: { code: described.code, message: described.message } } };
    const { code } = described;
    const path = request.url.split('?')[0];
    if (!wasMetered(exception) && !UNLOGGED.test(path)) {
      this.log.write({
        id: UUID.test(request.id) ? request.id : randomUUID(),
        accountId: principalOf(request)?.accountId ?? null,
        endpoint: (request.routeOptions.url ?? path).slice(0, 64),
        status,
        credits: 0,
        durationMs: Math.round(reply.elapsedTime),
        errorCode: code,
        createdAt: new Date(),
      }, request.id);
    }
    const retryAfter = status === 429 ? retryAfterSeconds(code, principalOf(request)?.periodEnd) : code === ErrorCode.SERVICE_UNAVAILABLE ? OUTAGE_RETRY_AFTER_S : null;
    if (retryAfter !== null) void reply.header('retry-after', String(retryAfter));
    void reply.status(status).send(body);
  }

  private describe(exception: unknown, request: FastifyRequest): DescribedError {
    if (exception instanceof TrawlError) {
      return { status: httpStatusOf(exception.code), code: exception.code, message: exception.message };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return { status, code: ErrorCode.NOT_FOUND, message: `No route ${request.method} ${request.url.split('?')[0]}` };
      if (status === 400) return { status, code: ErrorCode.INVALID_PARAMETER, message: exception.message };
      if (status === 503) {
        // @nestjs/terminus reports an unhealthy dependency this way; keep its details (no secrets in them).
        return { status, code: ErrorCode.SERVICE_UNAVAILABLE, message: JSON.stringify(exception.getResponse()) };
      }
      if (status < 500) return { status, code: status === 401 ? ErrorCode.UNAUTHORIZED : ErrorCode.FORBIDDEN, message: exception.message };
    }
    // Fastify's own client errors (malformed query string, body too large, …).
    const fastifyStatus = (exception as { statusCode?: number } | null)?.statusCode;
    if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
      return { status: 400, code: ErrorCode.INVALID_PARAMETER, message: 'Malformed request' };
    }
    // Postgres or Redis unreachable (e.g. while authenticating): a clear, retryable SERVICE_UNAVAILABLE, not a bug's INTERNAL.
    const outage = outageError(exception);
    if (outage) {
      this.logger.warn({ err: exception, reqId: request.id }, 'dependency unavailable');
      return { status: httpStatusOf(outage.code), code: outage.code, message: outage.message };
    }
    this.logger.error({ err: exception, reqId: request.id }, 'Unhandled error');
    return { status: 500, code: ErrorCode.INTERNAL, message: 'Internal server error' };
  }
}
