/**
 * The one `crawl.page` job handler, shared by every worker kind: fetch the page with the worker's engine (through a
 * proxy of the asked-for country, with a matching Accept-Language), then run the format pipeline. An anti-bot page
 * (block detector tiers 1–2: vendor challenges, walls, refusing statuses) is a per-URL UPSTREAM_BLOCKED error, not
 * content; structurally empty pages (tier 3) stay results here, since /crawl returns what a page is. Expected failures
 * (bad address, refused by the guard, oversize, unsupported content, a timeout that used the URL's budget) are
 * returned as values; faults a retry can fix (resets, a crashed browser) are thrown so the queue retries them — a
 * render failure only once.
 */
import { ErrorCode, TrawlError, type CrawlPagePayload, type CrawlPageResult, type ProxyProvider } from '#contracts';
import { toCrawlPageSuccess, type ExtractionPool } from '#extraction';
import { acceptLanguageForCountry, detectBlock, proxyFor } from '#fetch';
import type { PageEngine } from './page-engine.js';
import type { UpstreamPacer } from './upstream-pacer.js';

/** Added to a crawled host's gap at the moment of sending: two senders' reply latencies cannot close it up. */
const SPACING_MARGIN_MS = 5;
/** The part of a page's budget its turn may not use: the fetch's (1 s, or half a budget shorter than 2 s). */
const MIN_FETCH_MS = 1_000;

export class CrawlPageHandler {
  constructor(
    private readonly engine: PageEngine,
    private readonly proxies: ProxyProvider,
    private readonly extraction: ExtractionPool,
    private readonly pacer: Pick<UpstreamPacer, 'waitTurns'> | null = null,
  ) {}

  /** `attemptsMade`: earlier attempts of this job that failed (BullMQ's count; 0 on the first run). */
  async handle(payload: CrawlPagePayload, attemptsMade = 0): Promise<CrawlPageResult> {
    // The URL's time budget covers fetching and, for a document, parsing it.
    const deadline = Date.now() + payload.timeoutMs;
    // Actions need a browser: a job that reached another engine is refused, never run without them.
    if (payload.actions?.length && !this.engine.row.capabilities.renders) {
      return { ok: false, url: payload.url, error: { code: ErrorCode.INVALID_PARAMETER, message: `actions need a browser engine, not ${this.engine.row.id}`, kind: 'permanent' } };
    }
    // The host's gap is taken again as the request leaves: a page granted its start can reach here late (a queue, a
    // busy process) and the next one on time.
    if (payload.spacing?.length && this.pacer) {
      const fetchMs = Math.min(MIN_FETCH_MS, payload.timeoutMs / 2);
      if (!(await this.pacer.waitTurns(payload.spacing, deadline - fetchMs, SPACING_MARGIN_MS))) {
        const message = "The host's gap between requests left this page no time within its budget";
        return { ok: false, url: payload.url, error: { code: ErrorCode.TIMEOUT, message, kind: 'transient' } };
      }
    }
    try {
      const page = await this.engine.fetchPage({
        url: payload.url,
        timeoutMs: Math.max(1, deadline - Date.now()),
        device: payload.device,
        acceptLanguage: acceptLanguageForCountry(payload.geolocation),
        proxy: payload.geolocation ? proxyFor(this.proxies, payload.geolocation, { required: true }) : null,
        screenshot: payload.screenshot ? (payload.screenshotFullPage ? 'full' : 'viewport') : false,
        target: 'crawl',
        ...(payload.accountId ? { isolationKey: payload.accountId } : {}),
        ...(payload.followRedirects === false ? { followRedirects: false } : {}),
        ...(payload.headers ? { headers: payload.headers } : {}),
        ...(payload.waitForMs ? { waitForMs: payload.waitForMs } : {}),
        ...(payload.actions?.length ? { actions: payload.actions } : {}),
      });
      if (page.location) {
        return { ok: true, url: payload.url, finalUrl: page.finalUrl, status_code: page.status, redirect: page.location };
      }
      const verdict = detectBlock({ status: page.status, html: page.html, headers: page.headers });
      if (verdict.blocked && verdict.tier !== 3) {
        return {
          ok: false,
          url: payload.url,
          status_code: page.status,
          error: { code: ErrorCode.UPSTREAM_BLOCKED, message: `The site answered with an anti-bot page (${verdict.reason})`, kind: 'blocked' },
        };
      }
      return await toCrawlPageSuccess(payload, page, this.extraction, deadline);
    } catch (error) {
      // A timeout spent the URL's whole budget: retrying would run past it (CRAWL_TIMEOUT_MS is per URL, across attempts).
      if (error instanceof TrawlError && (!error.retryable || error.code === ErrorCode.TIMEOUT)) {
        return { ok: false, url: payload.url, error: error.toJSON() };
      }
      // A crashed page or browser (a memory limit included) gets one more attempt: that saves the innocent pages
      // a dying browser took down with it, while a page that crashes its renderer every time is not run again and again.
      if (error instanceof TrawlError && error.code === ErrorCode.RENDER_FAILED && attemptsMade >= 1) {
        return { ok: false, url: payload.url, error: error.toJSON() };
      }
      throw error;
    }
  }
}
