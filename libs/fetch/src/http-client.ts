/**
 * UndiciHttpClient: the plain-HTTP fetch engine of worker-http. Follows redirects itself so the SSRF guard sees every
 * hop, resolves DNS through the guard at connect time, decompresses and decodes with size and time caps, and reuses
 * keep-alive connections through one Agent (plus one proxy agent per proxy server) for the life of the client.
 */
import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { ErrorCode, TrawlError, type ProxyInfo } from '#contracts';
import { AddressGuard, literalIpHost, type AddressGuardOptions } from './address-guard.js';
import { discardBody, parseContentEncoding, readBody, tooLargeError } from './body.js';
import { decodeBody } from './charset.js';
import { documentKind, isSniffableMimeType, isSupportedMimeType, mimeType } from './content-type.js';
import { Deadline } from './deadline.js';
import { proxyFailedError, toFetchError } from './fetch-errors.js';
import { createGuardedLookup, resolveAllowed, systemResolver, type DnsResolver } from './guarded-lookup.js';
import { absoluteFormPath, createProxyAgent, type ProxyEndpoint } from './proxy-agent.js';
import { acceptLanguageForCountry, buildRequestHeaders, crossOriginHeaders } from './request-headers.js';
import type { FetchOptions, FetchResult, HttpClient } from './types.js';

export interface UndiciHttpClientOptions extends AddressGuardOptions {
  /** Maximum sockets per origin (default 32). */
  connections?: number;
  /** Idle keep-alive sockets are closed after this long (default 4000 ms). */
  keepAliveTimeoutMs?: number;
  /** TCP/TLS connect timeout per attempt (default 10000 ms; the fetch's own timeout still applies). */
  connectTimeoutMs?: number;
  /** Host name resolution (default: the system resolver, `dns.lookup`). Every answer passes the guard. */
  resolve?: DnsResolver;
}

const DEFAULT_MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses that, on a proxied plain-http request, come from the proxy itself (proxy-chain uses 590–599). */
const isProxyFailureStatus = (status: number): boolean => status === 407 || status === 502 || (status >= 590 && status <= 599);
const MAX_CACHED_PROXY_AGENTS = 256;
/** How long close() lets in-flight requests finish before destroying sockets (abandoned, timed-out ones included). */
const CLOSE_GRACE_MS = 1000;
const noop = (): void => {};

export class UndiciHttpClient implements HttpClient {
  readonly guard: AddressGuard;
  private readonly agent: Agent;
  private readonly proxyRoutes = new Map<string, ProxyRoute>();
  private readonly connections: number;
  private readonly keepAliveTimeout: number;
  private readonly resolve: DnsResolver;
  private readonly connectTimeout: number;
  private closed = false;

  constructor(opts: UndiciHttpClientOptions) {
    this.guard = new AddressGuard(opts);
    this.connections = opts.connections ?? 32;
    this.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 4000;
    this.resolve = opts.resolve ?? systemResolver;
    this.connectTimeout = opts.connectTimeoutMs ?? 10_000;
    this.agent = new Agent({
      connections: this.connections,
      keepAliveTimeout: this.keepAliveTimeout,
      connect: { lookup: createGuardedLookup(this.guard, this.resolve), timeout: this.connectTimeout },
    });
  }

  async fetch(options: FetchOptions): Promise<FetchResult> {
    const started = performance.now();
    if (this.closed) throw new TrawlError(ErrorCode.INTERNAL, 'The HTTP client is closed', 'transient');
    if (!(options.timeoutMs > 0) || !(options.maxBytes > 0)) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, 'timeoutMs and maxBytes must be positive', 'permanent');
    }
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TrawlError(ErrorCode.INVALID_URL, 'The URL is not valid', 'permanent');
    }
    const deadline = new Deadline(options.timeoutMs, options.signal);
    const proxy = options.proxy ?? null;
    try {
      return await this.follow(url, options, proxy, deadline, started);
    } catch (error) {
      throw toFetchError(error, { proxied: proxy !== null, timedOut: deadline.timedOut, timeoutMs: options.timeoutMs });
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const agents: Dispatcher[] = [this.agent, ...[...this.proxyRoutes.values()].map((route) => route.agent)];
    this.proxyRoutes.clear();
    await Promise.all(agents.map((agent) => closeWithin(agent, CLOSE_GRACE_MS)));
  }

  private async follow(
    url: URL,
    options: FetchOptions,
    proxy: ProxyInfo | null,
    deadline: Deadline,
    started: number,
  ): Promise<FetchResult> {
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const route = proxy ? this.proxyRouteFor(proxy) : null;
    const dispatcher = route ? route.agent : this.agent;
    const language = options.acceptLanguage ?? acceptLanguageForCountry(proxy?.country);
    let headers = buildRequestHeaders(options.device ?? 'desktop', language, options.headers);
    const redirects: string[] = [];
    let current = url;
    let method = options.method ?? 'GET';
    let requestBody = method === 'POST' ? options.body ?? '' : undefined;

    for (;;) {
      this.guard.assertUrlAllowed(current);
      // Direct fetches check DNS answers at connect time (guarded lookup); a proxy resolves the host itself, so
      // resolve and check it here first. Literal IPs were fully checked above.
      if (proxy && literalIpHost(current) === null) {
        await deadline.race(resolveAllowed(this.guard, this.resolve, current.hostname));
      }

      // Plain http through a proxy is sent to the proxy in absolute-form, with the proxy's credentials.
      const viaProxyInClear = route !== null && current.protocol === 'http:';
      const response = await requestBeforeDeadline(
        dispatcher,
        {
          origin: current.origin,
          path: viaProxyInClear ? absoluteFormPath(current) : current.pathname + current.search,
          method,
          ...(requestBody !== undefined ? { body: requestBody } : {}),
          headers: viaProxyInClear && route.endpoint.authorization ? { ...headers, 'proxy-authorization': route.endpoint.authorization } : headers,
          signal: deadline,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        },
        deadline,
      );
      const { statusCode: status, body } = response;
      const location = REDIRECT_STATUSES.has(status) ? firstHeader(response.headers.location) : undefined;

      if (location !== undefined) {
        body.dump().catch(noop); // drain (small) or drop the redirect body; the socket is reused when it drains
        if (redirects.length >= maxRedirects) {
          throw new TrawlError(ErrorCode.TOO_MANY_REDIRECTS, `More than ${maxRedirects} redirects`, 'permanent');
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new TrawlError(ErrorCode.INVALID_URL, 'The server redirected to an invalid URL', 'permanent');
        }
        next.hash = '';
        if (options.followRedirects === false) {
          const headersOut = flattenHeaders(response.headers);
          return {
            url: url.href, finalUrl: current.href, status, headers: headersOut, contentType: mimeType(headersOut['content-type']), redirects,
            charset: '', body: '', bytes: 0, location: next.href, timings: { totalMs: elapsed(started) },
          };
        }
        if (next.origin !== current.origin) headers = crossOriginHeaders(headers);
        if (method === 'POST' && status !== 307 && status !== 308) {
          // As browsers do: a redirected form post is fetched with GET, without the form.
          method = 'GET';
          requestBody = undefined;
        }
        redirects.push(next.href);
        current = next;
        continue;
      }

      if (viaProxyInClear && isProxyFailureStatus(status)) {
        discardBody(body);
        throw proxyFailedError(`it answered ${status}`);
      }

      const responseHeaders = flattenHeaders(response.headers);
      const contentTypeHeader = responseHeaders['content-type'];
      const mime = mimeType(contentTypeHeader);
      const base = { url: url.href, finalUrl: current.href, status, headers: responseHeaders, contentType: mime, redirects };

      const document = options.documents && !options.raw ? documentKind(mime) : undefined;
      if (!options.raw && document === undefined && !isSupportedMimeType(mime)) {
        // Small unwanted bodies are drained so the keep-alive socket survives; big ones close it.
        body.dump({ limit: 64 * 1024 }).catch(noop);
        // An error page in a binary type is still an answer about the URL: report its status, not a content error.
        if (status >= 400) return { ...base, charset: '', body: '', bytes: 0, timings: { totalMs: elapsed(started) } };
        throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `Unsupported content type "${mime.slice(0, 80)}"`, 'permanent');
      }

      const codings = parseContentEncoding(responseHeaders['content-encoding']);
      const declaredLength = Number(responseHeaders['content-length']);
      if (codings.length === 0 && declaredLength > options.maxBytes) {
        discardBody(body);
        throw tooLargeError(options.maxBytes, declaredLength);
      }
      const bytes = await readBody(body, codings, options.maxBytes);
      if (options.raw) return { ...base, charset: '', body: '', bytes: bytes.length, raw: bytes, timings: { totalMs: elapsed(started) } };
      if (document !== undefined) {
        return { ...base, charset: '', body: '', bytes: bytes.length, document: { kind: document, bytes }, timings: { totalMs: elapsed(started) } };
      }
      const decoded = decodeBody(bytes, { contentType: contentTypeHeader, sniff: isSniffableMimeType(mime) });
      return { ...base, charset: decoded.charset, body: decoded.text, bytes: bytes.length, timings: { totalMs: elapsed(started) } };
    }
  }

  /** One agent per proxy server and credentials, so tunnels and keep-alive sockets are reused across fetches. */
  private proxyRouteFor(proxy: ProxyInfo): ProxyRoute {
    const key = `${proxy.server}\n${proxy.username ?? ''}\n${proxy.password ?? ''}`;
    let route = this.proxyRoutes.get(key);
    if (route === undefined) {
      const endpoint = proxyEndpoint(proxy);
      route = {
        endpoint,
        agent: createProxyAgent(endpoint, {
          connections: this.connections,
          keepAliveTimeout: this.keepAliveTimeout,
          connectTimeout: this.connectTimeout,
        }),
      };
      if (this.proxyRoutes.size >= MAX_CACHED_PROXY_AGENTS) {
        const [oldestKey, oldest] = this.proxyRoutes.entries().next().value as [string, ProxyRoute];
        this.proxyRoutes.delete(oldestKey);
        oldest.agent.close().catch(noop);
      }
      this.proxyRoutes.set(key, route);
    }
    return route;
  }
}

interface ProxyRoute {
  endpoint: ProxyEndpoint;
  agent: Agent;
}

/** Credentials come from ProxyInfo, or from the server URL's userinfo when the caller left them there. */
function proxyEndpoint(proxy: ProxyInfo): ProxyEndpoint {
  let url: URL;
  try {
    url = new URL(proxy.server);
  } catch {
    throw proxyFailedError('its URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw proxyFailedError('only http and https proxies are supported');
  const username = proxy.username ?? decodeURIComponent(url.username);
  const password = proxy.password ?? decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const authorization = username || password ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : null;
  return { url, authorization };
}

/**
 * dispatcher.request(), but settled by the deadline even while the request is still queued for a connection
 * (undici only honours the signal once a request is dispatched on a socket, so a slow connect would overrun).
 * A response that arrives after we gave up is discarded so its socket is released.
 */
async function requestBeforeDeadline(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
  deadline: Deadline,
): Promise<Dispatcher.ResponseData> {
  const pending = dispatcher.request(options);
  try {
    return await deadline.race(pending);
  } catch (error) {
    pending.then((late) => discardBody(late.body), noop);
    throw error;
  }
}

/** Closes gracefully, or destroys once `ms` pass (a request abandoned at its deadline may still wait on a connect). */
async function closeWithin(dispatcher: Dispatcher, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const graceful = dispatcher.close().then(() => true);
  graceful.catch(noop);
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const closed = await Promise.race([graceful, expired]);
  clearTimeout(timer);
  if (!closed) await dispatcher.destroy();
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
