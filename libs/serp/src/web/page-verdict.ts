/**
 * The verdict for a Bing or DuckDuckGo `/search` page. On top of the shared markers (detect/page-markers.ts) it
 * reads the evidence these two engines give today (UPSTREAMS.md A "Blocks", B "Block page"): Bing's
 * `/turing/captcha/challenge` redirect and "One last step" page, DuckDuckGo's anomaly page and its HTTP 202, any
 * HTTP 429. Block markers in the markup only count on a page without results (snippets may quote them); the status
 * and the final URL count always. A challenge served with a 2xx status therefore still comes out blocked.
 */
import { blockReason, pageVerdict, type RewriteCheck } from '../detect/page-markers.js';
import type { BlockReason, SerpVerdict, UpstreamResponseMeta } from '../types.js';

const PROVIDER_BLOCK_MARKERS: Record<'bing' | 'duckduckgo', Array<{ reason: BlockReason; pattern: RegExp }>> = {
  bing: [
    { reason: 'captcha', pattern: /\/turing\/captcha\/challenge|One last step|Please solve the challenge below to continue|challenges\.cloudflare\.com\/turnstile/i },
  ],
  duckduckgo: [
    { reason: 'captcha', pattern: /anomaly\.js|anomaly-modal|Select all squares containing a duck|id=["']?challenge-form|bots use DuckDuckGo too/i },
  ],
};

/** Block evidence outside the markup: the status and the URL the request ended on. */
export function blockFromResponse(provider: 'bing' | 'duckduckgo', meta?: UpstreamResponseMeta): BlockReason | null {
  if (!meta) return null;
  if (meta.status === 429) return 'rate_limited';
  if (provider === 'duckduckgo' && meta.status === 202) return 'captcha'; // DDG answers distrusted clients 202 + anomaly page
  if (meta.finalUrl && /\/turing\/captcha\/|\/challenge\b|[?&]captcha=/i.test(meta.finalUrl)) return 'captcha';
  if (meta.status === 403 || meta.status === 503) return 'unknown';
  return null;
}

export function searchPageVerdict(
  provider: 'bing' | 'duckduckgo', html: string, resultCount: number, visible?: string, meta?: UpstreamResponseMeta, rewrite?: RewriteCheck,
): SerpVerdict {
  const fromResponse = blockFromResponse(provider, meta);
  if (fromResponse) return { kind: 'blocked', reason: fromResponse };
  if (resultCount === 0) {
    const marker = PROVIDER_BLOCK_MARKERS[provider].find((m) => m.pattern.test(html));
    if (marker && !blockReason(html)) return { kind: 'blocked', reason: marker.reason };
  }
  return pageVerdict(provider, html, resultCount, visible, rewrite);
}
