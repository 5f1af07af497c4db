/**
 * One `headful.page` job: load the URL in the headed browser through a residential proxy of the asked-for country
 * (locale, timezone and Accept-Language to match) — or directly when the gateway found no proxy for a default country, and judge the answer with the tiered block detector. A blocked
 * attempt, or one whose proxy failed, is retried through another proxy and a fresh session, up to `attempts`;
 * the proxy rests meanwhile. The page is then run through the format pipeline for the one asked-for format, and a
 * screenshot is stored. Every outcome is a value: `blocked` only when every attempt was blocked.
 */
import type { ScreenshotStore } from '#storage';
import { countryProfile } from '#browser/country-profile.js';
import { ErrorCode, TrawlError, formatsOf, type HeadfulPagePayload, type HeadfulPageResult, type SerializedError } from '#contracts';
import type { ExtractionPool } from '#extraction';
import { detectBlock, type ResidentialProxyPool } from '#fetch';
import type { PageEngine } from './page-engine.js';

/** Errors a different proxy cannot fix: stop at once. */
const FINAL = new Set<ErrorCode>([
  ErrorCode.INVALID_URL,
  ErrorCode.BLOCKED_ADDRESS,
  ErrorCode.DNS_FAILED,
  ErrorCode.HEADFUL_UNAVAILABLE,
  ErrorCode.UNSUPPORTED_CONTENT,
  ErrorCode.TOO_LARGE,
]);

/** The lease of a direct load: no proxy, nothing to rest or score. */
const DIRECT: { key: string; label: string; proxy: null; report: () => void } = { key: 'direct', label: 'direct', proxy: null, report: () => undefined };

export interface HeadfulPageOptions {
  attempts: number;
  /** Called for each attempt's verdict (logs and tests; never given credentials). */
  onAttempt?: (event: { url: string; proxy: string; outcome: 'ok' | 'blocked' | 'failed'; reason?: string }) => void;
}

export class HeadfulPageHandler {
  constructor(
    private readonly engine: PageEngine,
    private readonly proxies: ResidentialProxyPool,
    private readonly screenshots: ScreenshotStore,
    private readonly extraction: ExtractionPool,
    private readonly options: HeadfulPageOptions,
  ) {}

  async handle(payload: HeadfulPagePayload): Promise<HeadfulPageResult> {
    const profile = countryProfile(payload.country);
    const deadline = Date.now() + payload.timeoutMs;
    const tried = new Set<string>();
    let attempts = 0;
    let blocked = 0;
    let last: SerializedError = { code: ErrorCode.PROXY_UNAVAILABLE, message: `No residential proxy serves country "${payload.country}"`, kind: 'permanent' };

    // Direct (no residential proxy serves the default country): one attempt, there is no other exit to retry through.
    const maxAttempts = payload.direct ? 1 : this.options.attempts;
    while (attempts < maxAttempts) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        if (attempts === 0 || blocked < attempts) last = { code: ErrorCode.TIMEOUT, message: 'The page did not load within its budget', kind: 'transient' };
        break;
      }
      const lease = payload.direct ? DIRECT : this.proxies.lease(payload.country, tried);
      if (!lease) break;
      tried.add(lease.key);
      attempts++;
      // Later attempts keep a share of the budget: one slow proxy must not eat every retry.
      const budget = attempts < maxAttempts ? Math.min(remaining, Math.max(5_000, remaining / 2 + 2_000)) : remaining;
      let page;
      try {
        page = await this.engine.fetchPage({
          url: payload.url,
          timeoutMs: Math.floor(budget),
          device: 'desktop',
          acceptLanguage: profile.acceptLanguage,
          locale: profile.locale,
          timezoneId: profile.timezoneId,
          proxy: lease.proxy,
          screenshot: payload.screenshot ? 'full' : false,
          target: 'crawl',
        });
      } catch (error) {
        const e = TrawlError.from(error);
        last = e.toJSON();
        if (FINAL.has(e.code)) break;
        lease.report('failed');
        this.options.onAttempt?.({ url: payload.url, proxy: lease.label, outcome: 'failed', reason: e.code });
        continue;
      }
      const verdict = detectBlock({ status: page.status, html: page.html, headers: page.headers });
      if (verdict.blocked) {
        blocked++;
        lease.report('blocked');
        this.options.onAttempt?.({ url: payload.url, proxy: lease.label, outcome: 'blocked', reason: verdict.reason });
        last = { code: ErrorCode.UPSTREAM_BLOCKED, message: `The site blocked every attempt (last: ${verdict.reason})`, kind: 'blocked' };
        continue;
      }
      lease.report('ok');
      this.options.onAttempt?.({ url: payload.url, proxy: lease.label, outcome: 'ok' });
      const formatted = await this.extraction.format(page.html, {
        url: page.finalUrl,
        formats: formatsOf({ [payload.format]: true }),
      });
      if (formatted.unextractable && payload.format !== 'raw_html') {
        const error: SerializedError = { code: ErrorCode.UNSUPPORTED_CONTENT, message: formatted.unextractable, kind: 'permanent' };
        return { ok: false, url: payload.url, blocked: false, attempts, error };
      }
      const content = payload.format === 'raw_html' ? page.html : (formatted[payload.format] ?? '');
      let screenshotKey: string | undefined;
      if (page.screenshot) {
        try {
          screenshotKey = await this.screenshots.put(Buffer.from(page.screenshot, 'base64'));
        } catch {
          // Asked for and not deliverable: the URL fails (and costs nothing) rather than silently losing its screenshot.
          const error: SerializedError = { code: ErrorCode.INTERNAL, message: 'The screenshot could not be stored', kind: 'transient' };
          return { ok: false, url: payload.url, blocked: false, attempts, error };
        }
      }
      return {
        ok: true,
        url: payload.url,
        finalUrl: page.finalUrl,
        status_code: page.status,
        content,
        ...(screenshotKey ? { screenshotKey } : {}),
        attempts,
      };
    }
    return { ok: false, url: payload.url, blocked: attempts > 0 && blocked === attempts, attempts, error: last };
  }
}
