/**
 * `trawl crawl-site <URL>`: a site crawl through the HTTP API of a running Trawl — started with POST /crawls, then
 * followed by cursor (GET /crawls/{id}), each stored page written to stdout as one JSON line as it arrives; progress
 * on stderr. Exit status: 0 when the crawl completed, 1 when it ended otherwise (failed, cancelled, out of credits)
 * or the API refused it, 2 for bad usage, 130 after Ctrl-C, which cancels the crawl (DELETE) first.
 */
import { once } from 'node:events';
import { setTimeout as wait } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { FINISHED_STATUSES, type CrawlJobCreated, type CrawlJobStatus } from '#contracts';
import { UsageError } from './accounts-command.js';
import { CrawlProgress, summaryLine, type ProgressStream } from './crawl-progress.js';

export const CRAWL_SITE_USAGE = `Crawling through a running Trawl (its HTTP API; the key: --key or TRAWL_API_KEY, the API: --api or TRAWL_API_URL):
  crawl-site <URL> [--limit N] [--depth N] [--include RE]... [--exclude RE]... [--render] [--interval MS]
                                                                     crawl a site; each page as one JSON line on stdout`;

const DEFAULT_API = 'http://127.0.0.1:8080';
/** Pages asked for per read. */
const PAGE_BATCH = 100;
/** Reads that may fail in a row (Trawl restarting, a network blip) before the command gives up. */
const READ_ATTEMPTS = 5;

export interface CrawlSiteIo {
  stdout: NodeJS.WritableStream;
  stderr: ProgressStream;
  env: Record<string, string | undefined>;
}

class ApiError extends Error {}

interface Options {
  api: string;
  key: string;
  intervalMs: number;
  body: Record<string, unknown>;
}

function options(args: string[], env: Record<string, string | undefined>): Options {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      limit: { type: 'string' },
      depth: { type: 'string' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      render: { type: 'boolean', default: false },
      key: { type: 'string' },
      api: { type: 'string' },
      interval: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('crawl-site needs one URL');
  const key = values.key ?? env.TRAWL_API_KEY;
  if (!key) throw new UsageError('crawl-site needs an API key: --key KEY or TRAWL_API_KEY');
  const integer = (name: string, value: string | undefined, min: number): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d{1,9}$/.test(value) || Number(value) < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
    return Number(value);
  };
  const limit = integer('limit', values.limit, 1);
  const depth = integer('depth', values.depth, 0);
  return {
    api: (values.api ?? env.TRAWL_API_URL ?? DEFAULT_API).replace(/\/+$/, ''),
    key,
    intervalMs: integer('interval', values.interval, 100) ?? 1000,
    // The API validates the rest (URL, bounds, patterns) and names what is wrong.
    body: {
      url: positionals[0],
      ...(limit !== undefined ? { limit } : {}),
      ...(depth !== undefined ? { max_depth: depth } : {}),
      ...(values.include ? { include_paths: values.include } : {}),
      ...(values.exclude ? { exclude_paths: values.exclude } : {}),
      ...(values.render ? { render_js: true } : {}),
    },
  };
}

/** One API call: the JSON answer, or an ApiError with the API's own code and message. */
async function call<T>(o: Options, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${o.api}${path}`, {
      method,
      headers: { 'x-api-key': o.key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(`cannot reach Trawl at ${o.api} (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message})`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(`${method} ${path}: ${response.status} ${error ? `${error.code}: ${error.message}` : text.slice(0, 200)}`);
  }
  return json as T;
}

export async function runCrawlSiteCommand(args: string[], io: CrawlSiteIo, signal: AbortSignal): Promise<number> {
  const o = options(args, io.env);
  let created: CrawlJobCreated;
  try {
    created = await call<CrawlJobCreated>(o, 'POST', '/crawls', o.body);
  } catch (error) {
    io.stderr.write(`crawl-site: ${(error as Error).message}\n`);
    return 1;
  }
  io.stderr.write(`crawl-site: crawl ${created.id} started (${created.url})\n`);
  const progress = new CrawlProgress(io.stderr);
  let status: CrawlJobStatus | undefined;
  try {
    status = await follow(o, created.id, io, progress, signal);
  } catch (error) {
    if (!signal.aborted) {
      progress.finish();
      io.stderr.write(`crawl-site: ${(error as Error).message} (the crawl ${created.id} may still be running)\n`);
      return 1;
    }
  }
  progress.finish();
  if (signal.aborted || !status) {
    try {
      await call(o, 'DELETE', `/crawls/${created.id}`);
      io.stderr.write(`crawl-site: interrupted; crawl ${created.id} cancelled\n`);
    } catch (error) {
      io.stderr.write(`crawl-site: interrupted; cancelling crawl ${created.id} failed: ${(error as Error).message}\n`);
    }
    return 130;
  }
  if (status.error || !progress.wrote(status)) io.stderr.write(`crawl-site: ${summaryLine(status)}${status.error ? ` (${status.error})` : ''}\n`);
  return status.status === 'completed' ? 0 : 1;
}

/** Reads the crawl by cursor until it has finished and every stored page was written; the last status read. */
async function follow(o: Options, id: string, io: CrawlSiteIo, progress: CrawlProgress, signal: AbortSignal): Promise<CrawlJobStatus> {
  let cursor: string | null = null;
  let failures = 0;
  for (;;) {
    let status: CrawlJobStatus;
    try {
      status = await call<CrawlJobStatus>(o, 'GET', `/crawls/${id}?limit=${PAGE_BATCH}${cursor ? `&cursor=${cursor}` : ''}`, undefined, signal);
      failures = 0;
    } catch (error) {
      if (signal.aborted || ++failures >= READ_ATTEMPTS) throw error;
      await wait(o.intervalMs, undefined, { signal });
      continue;
    }
    for (const page of status.pages) {
      if (!io.stdout.write(`${JSON.stringify(page)}\n`)) await once(io.stdout, 'drain', { signal });
    }
    progress.update(status);
    const finished = FINISHED_STATUSES.includes(status.status);
    if (finished && !status.next_cursor) return status;
    cursor = status.next_cursor;
    // A full answer may have more behind it: read on at once. Otherwise wait for the crawl to store more.
    if (!finished && status.pages.length < PAGE_BATCH) await wait(o.intervalMs, undefined, { signal });
  }
}
