/**
 * Firecrawl's map and search on Trawl's `/map` and `/search`: map's links (objects in v2, strings in v1), and web
 * search results with `scrapeOptions` scraping the first `limit` results in the same call (one credit each over plain
 * HTTP, as `/crawl`); `creditsUsed` is the search's and the scrapes' credits together. Only web results exist here:
 * other sources a client names are ignored.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, MAX_SEARCH_PAGES, mapBodySchema as trawlMapSchema, parseInput, searchParamsSchema, type MapLink } from '#contracts';
import { MapService } from '#crawls';
import { llmRefusal, mapBodySchema, parseFirecrawl, refuse, scrapePlan, searchBodySchema, type FirecrawlDocument } from '#firecrawl';
import { SearchService } from '../search/search.service.js';
import { FirecrawlScrapeService, scrapeUrl } from './firecrawl-scrape.service.js';
import type { Version } from './firecrawl-jobs.service.js';

/** Results a search result page holds about (Bing and Google serve ten). */
const RESULTS_PER_PAGE = 10;

export interface WebResult extends Partial<FirecrawlDocument> {
  url: string;
  title: string;
  description: string;
  position: number;
}

@Injectable()
export class FirecrawlLookupService {
  private readonly mapSchema;

  constructor(
    private readonly maps: MapService,
    private readonly searches: SearchService,
    private readonly scraper: FirecrawlScrapeService,
    private readonly lifecycle: CallLifecycle,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.mapSchema = trawlMapSchema(config.MAP_MAX_LINKS);
  }

  async map(caller: Caller, raw: unknown, version: Version): Promise<{ success: true; links: MapLink[] | string[] }> {
    const body = parseFirecrawl(mapBodySchema, raw);
    const sitemap = body.sitemap ?? (body.sitemapOnly ? 'only' : body.ignoreSitemap ? 'skip' : 'include');
    const input = parseInput(this.mapSchema, {
      url: scrapeUrl(body.url),
      ...(body.search ? { search: body.search } : {}),
      sitemap,
      include_subdomains: body.includeSubdomains ?? true,
      ignore_query_strings: body.ignoreQueryParameters ?? true,
      limit: Math.min(body.limit ?? 5000, this.config.MAP_MAX_LINKS),
    });
    const answer = await this.maps.map(caller, input, `/${version}/map`);
    return { success: true, links: version === 'v1' ? answer.links.map((l) => l.url) : answer.links };
  }

  async search(caller: Caller, raw: unknown, base: string, version: Version): Promise<{ success: true; data: { web: WebResult[] } | WebResult[]; creditsUsed: number; warning?: string }> {
    const body = parseFirecrawl(searchBodySchema, raw);
    const plan = scrapePlan(body.scrapeOptions ?? { formats: [] });
    if ('path' in plan) refuse(`scrapeOptions.${plan.path}`, plan.message);
    const scrapes = Object.values(plan.document).some(Boolean) || plan.highlights !== undefined;
    if (plan.document.screenshot) refuse('scrapeOptions.formats', 'screenshot is offered by scrape only, not for search results');
    const llm = llmRefusal(plan, 'scrapeOptions.', 'scrape only, not for search results');
    if (llm) refuse(llm.path, llm.message);
    const limit = body.limit ?? 5;
    const params = parseInput(searchParamsSchema, {
      query: body.query,
      max_pages: Math.min(MAX_SEARCH_PAGES, Math.ceil(limit / RESULTS_PER_PAGE)),
      ...(body.country ? { cc: body.country.toLowerCase() } : {}),
      ...(body.lang ? { setLang: body.lang } : {}),
      ai_answer: false, questions_answers: false, related_queries: false, sidebar: false, direct_answer: false,
    });
    const endpoint = `/${version}/search`;
    const found = await this.searches.search(caller, params, endpoint);
    const results: WebResult[] = Object.keys(found.pages)
      .sort((a, b) => Number(a) - Number(b))
      .flatMap((n) => found.pages[n].search_results)
      .slice(0, limit)
      .map((r, i) => ({ url: r.link, title: r.title, description: r.snippet, position: i + 1 }));
    let credits = found.credits;
    let warning: string | undefined;
    if (scrapes && results.length) {
      const urls = results.map((r) => r.url);
      const { body: scraped } = await this.lifecycle.run(
        caller,
        { endpoint, reserve: urls.length * COSTS.crawlRender, insufficient: ErrorCode.CREDITS_EXHAUSTED, deadlineMs: this.config.CRAWL_TIMEOUT_MS + 10_000 },
        async (call) => {
          const done = await this.scraper.scrapeAll(call, urls, plan, base);
          return { body: done, charge: done.credits };
        },
      );
      credits += scraped.credits;
      for (const [i, page] of scraped.pages.entries()) {
        if (page.document) Object.assign(results[i], page.document);
        else results[i].metadata = { sourceURL: page.url, error: `${page.error?.code}: ${page.error?.message}` };
      }
      const failed = scraped.pages.filter((p) => !p.document).length;
      if (failed) warning = `${failed} of ${urls.length} results could not be scraped (see their metadata.error)`;
    }
    return { success: true, data: version === 'v1' ? results : { web: results }, creditsUsed: credits, ...(warning ? { warning } : {}) };
  }
}
