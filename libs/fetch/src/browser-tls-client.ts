/**
 * An HttpClient with Chrome's TLS and HTTP/2 fingerprint (impit), for search-engine upstreams that refuse clients
 * whose handshake does not match their user agent (DuckDuckGo answers 202 / a challenge to Node's TLS; see
 * docs/ UPSTREAMS notes in the README). Only for operator-configured upstreams: the target host is resolved and
 * checked against the address guard before the request (metadata and link-local never), but impit connects by
 * itself, so user URLs always go through `UndiciHttpClient`, whose guard sits in the connect path.
 */
import { Impit, type ImpitOptions } from 'impit';
import { ErrorCode, TrawlError } from '#contracts';
import { type AddressGuard, literalIpHost } from './address-guard.js';
import { decodeBody } from './charset.js';
import { resolveAllowed, systemResolver, type DnsResolver } from './guarded-lookup.js';
import { buildRequestHeaders, DEFAULT_ACCEPT_LANGUAGE } from './request-headers.js';
import type { FetchOptions, FetchResult, HttpClient } from './types.js';

export interface BrowserTlsHttpClientOptions {
  guard: AddressGuard;
  resolve?: DnsResolver;
}

/** One impit client per proxy (impit binds its proxy at construction), a few at most. */
const MAX_CLIENTS = 64;

export class BrowserTlsHttpClient implements HttpClient {
  private readonly clients = new Map<string, Impit>();

  constructor(private readonly opts: BrowserTlsHttpClientOptions) {}

  async fetch(options: FetchOptions): Promise<FetchResult> {
    const started = performance.now();
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TrawlError(ErrorCode.INVALID_URL, 'Invalid upstream URL');
    }
    this.opts.guard.assertUrlAllowed(url);
    if (literalIpHost(url) === null && !options.proxy) {
      await resolveAllowed(this.opts.guard, this.opts.resolve ?? systemResolver, url.hostname);
    }
    const headers = buildRequestHeaders(options.device ?? 'desktop', options.acceptLanguage ?? DEFAULT_ACCEPT_LANGUAGE, options.headers);
    let response: Awaited<ReturnType<Impit['fetch']>>;
    let bytes: Uint8Array;
    try {
      response = await this.client(options).fetch(url.toString(), {
        method: options.method ?? 'GET',
        headers: { ...headers },
        ...(options.body !== undefined ? { body: options.body } : {}),
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (error instanceof TrawlError) throw error;
      const name = (error as Error)?.constructor?.name ?? '';
      if (/Timeout/.test(name)) throw new TrawlError(ErrorCode.TIMEOUT, `The upstream did not answer within ${options.timeoutMs} ms`, 'transient');
      if (/Proxy/.test(name)) throw new TrawlError(ErrorCode.PROXY_FAILED, 'The proxy failed', 'blocked');
      if (/TooManyRedirects/.test(name)) throw new TrawlError(ErrorCode.TOO_MANY_REDIRECTS, 'Too many redirects');
      throw new TrawlError(ErrorCode.CONNECTION_FAILED, 'Could not reach the upstream', 'transient');
    }
    if (bytes.length > options.maxBytes) {
      throw new TrawlError(ErrorCode.TOO_LARGE, `The upstream answer is larger than ${options.maxBytes} bytes`);
    }
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name.toLowerCase()] = value;
    });
    const contentTypeHeader = responseHeaders['content-type'] ?? '';
    const decoded = decodeBody(bytes, { contentType: contentTypeHeader });
    const finalUrl = response.url || url.toString();
    return {
      url: url.toString(),
      finalUrl,
      status: response.status,
      headers: responseHeaders,
      contentType: contentTypeHeader.split(';')[0].trim().toLowerCase(),
      charset: decoded.charset,
      body: decoded.text,
      bytes: bytes.length,
      redirects: finalUrl === url.toString() ? [] : [finalUrl],
      timings: { totalMs: performance.now() - started },
    };
  }

  private client(options: FetchOptions): Impit {
    const proxy = options.proxy;
    let proxyUrl: string | undefined;
    if (proxy) {
      const u = new URL(proxy.server);
      if (proxy.username) u.username = encodeURIComponent(proxy.username);
      if (proxy.password) u.password = encodeURIComponent(proxy.password);
      proxyUrl = u.toString();
    }
    const key = `${proxyUrl ?? ''}|${options.maxRedirects ?? 10}`;
    let client = this.clients.get(key);
    if (!client) {
      const impitOptions: ImpitOptions = { browser: 'chrome', followRedirects: (options.maxRedirects ?? 10) > 0, maxRedirects: options.maxRedirects ?? 10 };
      if (proxyUrl) impitOptions.proxyUrl = proxyUrl;
      client = new Impit(impitOptions);
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value as string);
      this.clients.set(key, client);
    }
    return client;
  }

  async close(): Promise<void> {
    this.clients.clear();
  }
}
