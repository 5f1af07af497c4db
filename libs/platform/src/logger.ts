/**
 * Structured JSON logs (pino), one shape for every line of every process: Nest's, Fastify's and Trawl's own
 * (`level`, `time`, `pid`, `hostname`, `name`, `msg`). Secrets are redacted by path wherever they could appear, and
 * API keys pasted into URLs are masked by the `req` serializer, so they stay out of the logs even at `trace`.
 */
import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { PinoPretty } from 'pino-pretty';

export const REDACT_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.adminToken',
  '*.ADMIN_TOKEN',
  '*.proxyUrl',
  '*.RESIDENTIAL_PROXY_URL',
  '*.PROXY_URLS',
];

/**
 * A secret-bearing query parameter, also inside a percent-encoded URL that is itself a parameter's value
 * (`urls=https%3A%2F%2Fa.example%2F%3Fkey%3D…`, encoded once or more): the separator (`?`, `&`, `;`), the name (`key`,
 * `api_key`, `x-api-key`, `token`, …) and `=` may each be encoded, and the value runs to the next separator, encoded
 * or not.
 */
const ENC = (hex: string) => `%(?:25)*${hex}`;
const SEPARATOR = `(?:[?&;]|${ENC('(?:3F|26|3B)')})`;
const NAME = `(?:x[-_]|x${ENC('2D')})?(?:key|api[-_]?key|api${ENC('2D')}key|token|access[-_]token|auth[-_]?token)`;
const EQUALS = `(?:=|${ENC('3D')})`;
const VALUE = `(?:(?!${ENC('(?:26|3B|23)')})[^&;#\\s])*`;
const SECRET_QUERY = new RegExp(`(${SEPARATOR}${NAME}${EQUALS})${VALUE}`, 'gi');
const URL_CREDENTIALS = /(\/\/)[^/@\s]+@/g;
/** `user:password@` of an encoded URL (`%2F%2Fuser%3Apw%40host`). */
const ENCODED_CREDENTIALS = new RegExp(`((?:${ENC('2F')}){2})(?:(?!${ENC('(?:2F|40)')})[^/@\\s&;#])+${ENC('40')}`, 'gi');
/** A Trawl API key wherever it appears (a path segment, an unusual parameter name): never logged, whatever carried it. */
const TRAWL_KEY = /trawl_[0-9A-Za-z]{16,}/g;

/** `url` with the values of key/api_key/x-api-key/token query parameters (encoded ones too), Trawl keys and any user:password@ masked. */
export function maskUrlSecrets(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]').replace(URL_CREDENTIALS, '$1[redacted]@').replace(ENCODED_CREDENTIALS, '$1[redacted]%40').replace(TRAWL_KEY, 'trawl_[redacted]');
}

interface RequestLike {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

const serializers = {
  err: stdSerializers.err,
  req: (req: RequestLike) => ({
    method: req.method,
    url: typeof req.url === 'string' ? maskUrlSecrets(req.url) : req.url,
    hostname: req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
};

let destination: DestinationStream | undefined;

/** Sends every logger created from now on to `stream` (tests capture the lines); `undefined` restores stdout. */
export function logTo(stream: DestinationStream | undefined): void {
  destination = stream;
}

export function loggerOptions(level: string, name: string): LoggerOptions {
  return { level, name, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, serializers };
}

/**
 * Standard output, shared by every logger of the process (one buffer, so lines keep their order). Lines are written
 * in batches: once 4 KiB have gathered, or every 200 ms, and at exit (pino flushes on `exit`, a crash included). A
 * write per line cost a gateway four system calls per request at `info` (the write, on libuv's thread pool, and the
 * wake-ups around it: bench/crawl/crawl-bench.ts `--log-level=info`). A process killed outright (SIGKILL, the OOM
 * killer) loses at most the lines of its last 200 ms; the request log in Postgres keeps every call regardless.
 * A batch is written synchronously (one write(2) per 4 KiB on the main thread): written on libuv's thread pool, a
 * batch still in flight at exit was overtaken by the exit's synchronous flush of the lines after it (sonic-boom's
 * flushSync skips a write in flight), so a loaded machine printed them out of order, or lost them.
 */
let stdout: DestinationStream | undefined;
const STDOUT_BATCH_BYTES = 4096;
const STDOUT_FLUSH_MS = 200;

let format: 'json' | 'pretty' = 'json';

/**
 * How stdout's lines look from now on: `json` (one object a line, for collectors; the default) or `pretty` (pino-pretty:
 * time, level and message a line, for a person at a terminal). Set once at boot, before the first logger.
 */
export function useLogFormat(next: 'json' | 'pretty'): void {
  format = next;
}

/** `pretty` for a terminal, `json` otherwise, unless LOG_FORMAT says which. */
export function logFormatFor(setting: 'auto' | 'json' | 'pretty', isTerminal: boolean): 'json' | 'pretty' {
  return setting === 'auto' ? (isTerminal ? 'pretty' : 'json') : setting;
}

/** Standard output in synchronous batches, the last one written as the process exits (a crash included). */
function batchedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: true, minLength: STDOUT_BATCH_BYTES, periodicFlush: STDOUT_FLUSH_MS });
  // pino flushes only asynchronous destinations at exit.
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // stdout is closed: nothing to write to
    }
  });
  return stream;
}

/** A pino logger on stdout, or on stderr (`toStderr`: the CLI, whose stdout is its output). */
export function createLogger(level: string, name: string, toStderr = false): Logger {
  const options = loggerOptions(level, name);
  if (destination) return pino(options, destination);
  if (toStderr) return pino(options, pino.destination({ dest: 2, sync: true }));
  stdout ??= format === 'pretty' ? PinoPretty({ destination: 1, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,name' }) : batchedStdout();
  return pino(options, stdout);
}

