/**
 * `POST /map`: a site's URLs, fast, without their content — every fetch a worker job (the gateway never fetches):
 * robots.txt (the shared RobotsCache) for its Sitemap lines, the sitemaps (sitemapUrls: /sitemap.xml when robots.txt
 * names none, indexes and gzip followed, at most MAX_SITEMAPS), the start page as a `crawl.page` job with links and
 * no formats (its title and description from its metadata), and with `use_search` one result page of Trawl's web
 * search for `site:<host> <search>` (titles and snippets where it knows them). The three run at once under the
 * call's deadline; the answer merges them in a fixed order, scoped and de-duplicated by #frontier's URL keys, ranked
 * by the `search` words.
 *
 * Metered: 2 credits, plus 10 only when the search page was fetched (COSTS.map + COSTS.search reserved). A source that
 * fails is named in `warning`; when the start page failed and nothing was found, the call fails (500 UPSTREAM_FAILED, nothing charged).
 */
import { setTimeout as wait } from 'node:timers/promises';
import { getDomain } from 'tldts';
import {
  ErrorCode, formatsOf, JobName, selectEngine, TrawlError,
  type CrawlPagePayload, type MapBody, type MapResponse, type QueueName, type SearchProviderName, type SerializedError, type WebSearchPayload,
} from '#contracts';
import { COSTS, type CallContext, type CallLifecycle, type Caller } from '#billing';
import type { RobotsRules } from '#frontier';
import type { JobDispatcher } from '#queue';
import { mergeLinks, rankLinks, type MapCandidate } from './map-links.js';
import { RobotsPending, RobotsUnreachable, type RobotsCache } from './robots-cache.js';
import { sitemapUrls } from './sitemaps.js';

export interface MapSettings {
  /** SEARCH_ENGINE, and the queue of the worker that fetches it. */
  searchProvider: SearchProviderName;
  searchQueue: QueueName;
  /** CRAWL_TIMEOUT_MS: the start page's budget. */
  pageTimeoutMs: number;
  /** SERP_TIMEOUT_MS: the search page's budget. */
  serpTimeoutMs: number;
  maxUrlLength: number;
  /** MAP_MAX_LINKS: URLs gathered at most before ranking. */
  maxLinks: number;
}

/** The whole call's deadline (capped by REQUEST_DEADLINE_MS): a map is meant to be fast. */
export const MAP_DEADLINE_MS = 60_000;
/** The most results one search page is asked for (Bing's `count` bound). */
const SEARCH_COUNT = 50;
/** How long to wait for another process fetching the same robots.txt before going on without it. */
const ROBOTS_WAIT_MS = 20_000;

type Outcome<T> = ({ ok: true } & T) | { ok: false; error: string };

const failure = (error: SerializedError | TrawlError): { ok: false; error: string } => ({ ok: false, error: `${error.code}: ${error.message}` });

export class MapService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    private readonly robots: RobotsCache,
    private readonly settings: MapSettings,
  ) {}

  async map(caller: Caller, body: MapBody, endpoint = '/map'): Promise<MapResponse> {
    const reserve = COSTS.map + (body.use_search ? COSTS.search : 0);
    const plan = { endpoint, reserve, insufficient: ErrorCode.CREDITS_EXHAUSTED, deadlineMs: MAP_DEADLINE_MS } as const;
    const { body: answer } = await this.lifecycle.run(caller, plan, async (call) => {
      // Without a search to rank by, the first `limit` URLs are the answer: gather no more.
      const gather = body.search ? this.settings.maxLinks : body.limit;
      const [page, sitemap, search] = await Promise.all([
        body.sitemap === 'only' ? null : this.startPage(call, body.url),
        body.sitemap === 'skip' ? [] : this.sitemaps(call, body.url, gather),
        body.use_search ? this.webSearch(call, body) : null,
      ]);
      const candidates: MapCandidate[] = [
        ...(page?.ok ? page.self : []),
        ...(search?.ok ? search.results : []),
        ...sitemap,
        ...(page?.ok ? page.links : []),
      ];
      const scope = { start: body.url, allowSubdomains: body.include_subdomains, allowExternal: false, include: [], exclude: [], maxUrlLength: this.settings.maxUrlLength };
      const links = rankLinks(mergeLinks(candidates, scope, { ignoreQuery: body.ignore_query_strings }, gather), body.search).slice(0, body.limit);
      if (links.length === 0 && page && !page.ok) {
        throw new TrawlError(ErrorCode.UPSTREAM_FAILED, `The start page could not be fetched (${page.error}) and no other source found a URL`);
      }
      const warnings = [page && !page.ok ? `start page: ${page.error}` : null, search && !search.ok ? `search: ${search.error}` : null].filter(Boolean);
      const credits = COSTS.map + (search?.ok ? COSTS.search : 0);
      return { body: { links, credits, ...(warnings.length ? { warning: warnings.join('; ') } : {}) }, charge: credits };
    });
    return answer;
  }

  /** The start page's own URL (when it answered below 400, with its title and description) and its links. */
  private async startPage(call: CallContext, url: string): Promise<Outcome<{ self: MapCandidate[]; links: MapCandidate[] }>> {
    const payload: CrawlPagePayload = {
      callId: call.callId,
      accountId: call.principal.accountId,
      url,
      formats: formatsOf({}),
      device: 'desktop',
      links: true,
      timeoutMs: this.settings.pageTimeoutMs,
    };
    const deadline = Math.min(call.deadline, Date.now() + this.settings.pageTimeoutMs + 5_000);
    const [outcome] = await this.dispatcher.runAll(selectEngine({ renders: false }).queue, JobName.crawlPage, [payload], deadline);
    if (!outcome.ok) return failure(outcome.error);
    const page = outcome.result;
    if (!page.ok) return failure(page.error);
    const self = page.status_code < 400 ? [{ url: page.finalUrl, title: page.metadata?.title, description: page.metadata?.description }] : [];
    return { ok: true, self, links: (page.links ?? []).map((link) => ({ url: link.url })) };
  }

  private async sitemaps(call: CallContext, start: string, max: number): Promise<MapCandidate[]> {
    const robots = await this.robotsRules(call, start);
    const entries = await sitemapUrls(this.dispatcher, start, robots, call.callId, max, call.deadline);
    return entries.map((entry) => ({ url: entry.url }));
  }

  /** The site's robots.txt rules (for their Sitemap lines), or null when another process is still fetching them. */
  private async robotsRules(call: CallContext, start: string): Promise<RobotsRules | null> {
    const until = Math.min(call.deadline, Date.now() + ROBOTS_WAIT_MS);
    for (;;) {
      try {
        return await this.robots.rulesFor(start, call.callId);
      } catch (error) {
        // Unreachable: the sitemaps are looked for at the usual place (their fetch says the rest).
        if (error instanceof RobotsUnreachable) return null;
        if (!(error instanceof RobotsPending)) throw error;
      }
      if (Date.now() + 250 > until) return null;
      await wait(250);
    }
  }

  /** One result page of the web search for `site:<host> <search>`. */
  private async webSearch(call: CallContext, body: MapBody): Promise<Outcome<{ results: MapCandidate[] }>> {
    const payload: WebSearchPayload = {
      callId: call.callId,
      provider: this.settings.searchProvider,
      params: { query: siteQuery(body), page: 1, device: 'desktop', count: SEARCH_COUNT },
      timeoutMs: this.settings.serpTimeoutMs,
    };
    const deadline = Math.min(call.deadline, Date.now() + this.settings.serpTimeoutMs + 5_000);
    const [outcome] = await this.dispatcher.runAll(this.settings.searchQueue, JobName.serpWeb, [payload], deadline);
    if (!outcome.ok) return failure(outcome.error);
    const result = outcome.result;
    if (!result.ok) return failure(result.error);
    return { ok: true, results: result.page.search_results.map((r) => ({ url: r.link, title: r.title, description: r.snippet })) };
  }
}

/**
 * `site:<host> <search>`: the start host without `www.`, or with include_subdomains its registrable domain (an
 * engine's `site:` covers the subdomains of what it names).
 */
export function siteQuery(body: Pick<MapBody, 'url' | 'search' | 'include_subdomains'>): string {
  const host = new URL(body.url).hostname.replace(/^www\./, '');
  const site = body.include_subdomains ? (getDomain(host, { allowPrivateDomains: true }) ?? host) : host;
  return `site:${site}${body.search ? ` ${body.search}` : ''}`;
}
