/**
 * A site's sitemap URLs: the `Sitemap:` lines of its robots.txt, else /sitemap.xml; sitemap indexes followed (at
 * most MAX_SITEMAPS fetched per crawl, as Firecrawl does), gzipped sitemaps inflated with a bound, every fetch through
 * worker-http (the SSRF guard applies to each sitemap's host). Entries on other sites are left to the crawl's scope.
 */
import { JobName, QueueName } from '#contracts';
import { parseSitemap, type RobotsRules } from '#frontier';
import type { JobDispatcher } from '#queue';

export const MAX_SITEMAPS = 20;
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 20_000;

export interface SitemapEntry {
  url: string;
  lastmod?: string;
}

/** `deadline` (epoch ms): no sitemap is asked for after it, and none waited for past it (a caller's own deadline). */
export async function sitemapUrls(
  dispatcher: JobDispatcher,
  start: string,
  robots: RobotsRules | null,
  callId: string,
  maxUrls: number,
  deadline = Infinity,
): Promise<SitemapEntry[]> {
  const origin = new URL(start).origin;
  const queue = robots?.sitemaps().length ? [...robots.sitemaps()] : [`${origin}/sitemap.xml`];
  const visited = new Set<string>();
  const found: SitemapEntry[] = [];
  while (queue.length > 0 && visited.size < MAX_SITEMAPS && found.length < maxUrls && Date.now() < deadline) {
    const batch = queue.splice(0, Math.min(queue.length, MAX_SITEMAPS - visited.size)).filter((u) => !visited.has(u));
    batch.forEach((u) => visited.add(u));
    if (batch.length === 0) continue;
    const outcomes = await dispatcher.runAll(
      QueueName.http,
      JobName.fetchResource,
      batch.map((url) => ({ callId, url, maxBytes: SITEMAP_MAX_BYTES, timeoutMs: FETCH_TIMEOUT_MS })),
      Math.min(deadline, Date.now() + FETCH_TIMEOUT_MS + 5_000),
    );
    for (const outcome of outcomes) {
      if (!outcome.ok || !outcome.result.ok || outcome.result.status >= 400) continue;
      const parsed = parseSitemap(Buffer.from(outcome.result.body, 'base64'), { maxUrls: maxUrls - found.length });
      if (parsed.kind === 'index') queue.push(...parsed.sitemaps.filter((u) => !visited.has(u)));
      else found.push(...parsed.urls.map((u) => ({ url: u.loc, ...(u.lastmod ? { lastmod: u.lastmod } : {}) })));
    }
  }
  return found.slice(0, maxUrls);
}
