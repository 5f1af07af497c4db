/**
 * Errors that mean Postgres or Redis cannot be reached right now (down, restarting, a connection dropped under a
 * query) rather than a bug. The gateway answers them SERVICE_UNAVAILABLE (500 with Retry-After) — a clear error a client may retry —
 * instead of 500 INTERNAL, which the README reserves for bugs. Recognised by shape (pg, Prisma's adapter, ioredis
 * and Node's socket errors), through `cause` chains; crawl targets' own connection errors never reach here (the
 * workers turn them into per-URL results).
 */
import { ErrorCode, TrawlError } from '#contracts';

/** Socket errno codes, Postgres SQLSTATEs (57P0x shutdown/startup, 08xxx connection) and Prisma's P1001/P1002/P1017. */
const CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006',
  'P1001', 'P1002', 'P1017',
]);
/** @prisma/adapter-pg's error kinds for a lost database. */
const KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
const MESSAGES =
  /Connection terminated|terminating connection|Connection is closed|the database system is (starting up|shutting down|in recovery mode)|Can't reach database server|Server has closed the connection|max retries per request/i;

export function isOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const e = error as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && CODES.has(e.code)) return true;
  if (typeof e.kind === 'string' && KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isOutage(inner, depth + 1))) return true;
  return isOutage(e.cause, depth + 1);
}

/** The SERVICE_UNAVAILABLE a client gets for an outage; null for any other error (a TrawlError stays what it is). */
export function outageError(error: unknown): TrawlError | null {
  if (error instanceof TrawlError || !isOutage(error)) return null;
  return new TrawlError(ErrorCode.SERVICE_UNAVAILABLE, 'A backing service (database or queue) is unavailable; retry shortly', 'transient');
}
