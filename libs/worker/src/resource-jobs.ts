/**
 * The worker's part of site crawls that is not a page: a resource fetched as bytes (robots.txt, a sitemap — gzipped
 * ones arrive as they are), and a webhook POST. Both go through the engine's HTTP client, so the SSRF guard applies
 * to every sitemap entry's host and every webhook URL exactly as to a crawled page. A webhook that does not answer
 * 2xx throws a transient error: the queue retries it with backoff.
 */
import { ErrorCode, TrawlError, type FetchResourcePayload, type FetchResourceResult, type WebhookDeliverPayload, type WebhookDeliverResult } from '#contracts';
import type { PageEngine } from './page-engine.js';

export async function fetchResource(engine: PageEngine, payload: FetchResourcePayload): Promise<FetchResourceResult> {
  try {
    const page = await engine.fetchPage({
      url: payload.url,
      timeoutMs: payload.timeoutMs,
      device: 'desktop',
      acceptLanguage: 'en-US,en;q=0.9',
      proxy: null,
      target: 'crawl',
      raw: true,
    });
    const body = Buffer.from(page.body ?? Buffer.from(page.html));
    return { ok: true, finalUrl: page.finalUrl, status: page.status, contentType: page.headers?.['content-type'] ?? '', body: body.toString('base64') };
  } catch (error) {
    const failure = error instanceof TrawlError ? error : TrawlError.from(error);
    if (failure.retryable && failure.code !== ErrorCode.TIMEOUT) throw failure;
    return { ok: false, error: failure.toJSON() };
  }
}

export async function deliverWebhook(engine: PageEngine, payload: WebhookDeliverPayload): Promise<WebhookDeliverResult> {
  const page = await engine.fetchPage({
    url: payload.url,
    timeoutMs: payload.timeoutMs,
    device: 'desktop',
    acceptLanguage: 'en-US,en;q=0.9',
    proxy: null,
    target: 'crawl',
    method: 'POST',
    body: payload.body,
    headers: payload.headers,
    raw: true,
  });
  if (page.status < 200 || page.status >= 300) {
    throw new TrawlError(ErrorCode.UPSTREAM_FAILED, `The webhook answered HTTP ${page.status}`, 'transient');
  }
  return { ok: true, status: page.status };
}
