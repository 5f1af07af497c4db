/**
 * Firecrawl's map and search on Trawl's `/map` and `/search`: map's links (objects in v2, strings in v1), and web
 * search results with `scrapeOptions` scraping the first `limit` results in the same call (one credit each over plain
 * HTTP, as `/crawl`); `creditsUsed` is the search's and the scrapes' credits together. v2's `news` and `images`
 * sources are `/serp-search`'s verticals (10 credits each, as that route charges; `scrapeOptions` scrape the news
 * articles too); a source a client adds of its own is ignored.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { CallLifecycle, COSTS, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  ErrorCode, MAX_SEARCH_PAGES, mapBodySchema as trawlMapSchema, parseInput, searchParamsSchema, serpSearchParamsSchema,
  type ImageResult, type MapLink, type NewsResult,
} from '#contracts';
import { MapService } from '#crawls';
import {
  captureRefusal, imageItem, llmRefusal, mapBodySchema, newsItem, parseFirecrawl, refuse, scrapePlan, searchBodySchema, searchSources,
  type FirecrawlDocument, type ImageItem, type NewsItem, type SearchSource,
} from '#firecrawl';
import { SearchService } from '../search/search.service.js';
import { SerpSearchService } from '../serp-search/serp-search.service.js';
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

/** v2's `data`: a list per source asked for. */
export interface SearchData {
  web?: WebResult[];
  news?: NewsItem[];
  images?: ImageItem[];
}

@Injectable()
export class FirecrawlLookupService {
  private readonly mapSchema;

  constructor(
    private readonly maps: MapService,
    private readonly searches: SearchService,
    private readonly serp: SerpSearchService,
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

  async search(caller: Caller, raw: unknown, base: string, version: Version): Promise<{ success: true; data: SearchData | WebResult[]; creditsUsed: number; warning?: string }> {
    const body = parseFirecrawl(searchBodySchema, raw);
    const plan = scrapePlan(body.scrapeOptions ?? { formats: [] });
    if ('path' in plan) refuse(`scrapeOptions.${plan.path}`, plan.message);
    const scrapes = Object.values(plan.document).some(Boolean) || plan.highlights !== undefined;
    const capture = captureRefusal(plan, 'scrapeOptions.', 'search results');
    if (capture) refuse(capture.path, capture.message);
    const llm = llmRefusal(plan, 'scrapeOptions.', 'scrape only, not for search results');
    if (llm) refuse(llm.path, llm.message);
    // v1's search has no sources: its answer is the web results, flat.
    const sources = version === 'v1' ? (['web'] as const) : searchSources(body.sources);
    if ('path' in sources) refuse(sources.path, sources.message);
    const limit = body.limit ?? 5;
    // `country` names the country; else `location`'s (its last part, "Berlin,Germany").
    const country = body.country ?? body.location;
    const endpoint = `/${version}/search`;
    // Every parameter is checked before the first search runs (a refusal charges nothing).
    const webParams = asFirecrawl(searchParamsSchema, {
      query: body.query,
      max_pages: Math.min(MAX_SEARCH_PAGES, Math.ceil(limit / RESULTS_PER_PAGE)),
      ...(country ? { cc: country.toLowerCase() } : {}),
      ...(body.lang ? { setLang: body.lang } : {}),
      ai_answer: false, questions_answers: false, related_queries: false, sidebar: false, direct_answer: false,
    });
    const verticalParams = (type: 'news' | 'images') =>
      asFirecrawl(serpSearchParamsSchema, { q: body.query, ...(country ? { gl: country.toLowerCase() } : {}), ...(body.lang ? { hl: body.lang } : {}), ...(body.tbs ? { tbs: body.tbs } : {}), num: limit, type });
    if (sources.some((s) => s !== 'web')) verticalParams('news');

    const data: SearchData = {};
    let credits = 0;
    const failed: Array<{ source: SearchSource; error: unknown }> = [];
    for (const source of sources) {
      try {
        if (source === 'web') {
          const found = await this.searches.search(caller, webParams, endpoint, body.tbs ? { tbs: body.tbs } : {});
          credits += found.credits;
          data.web = Object.keys(found.pages)
            .sort((a, b) => Number(a) - Number(b))
            .flatMap((n) => found.pages[n].search_results)
            .slice(0, limit)
            .map((r, i) => ({ url: r.link, title: r.title, description: r.snippet, position: i + 1 }));
        } else {
          const found = await this.serp.search(caller, verticalParams(source), endpoint);
          credits += COSTS.serpSearch;
          const items = found.serp_search_results.slice(0, limit);
          if (source === 'news') data.news = (items as NewsResult[]).map((r, i) => newsItem(r, i + 1));
          else data.images = (items as ImageResult[]).map((r, i) => imageItem(r, i + 1));
        }
      } catch (error) {
        failed.push({ source, error });
      }
    }
    // One source failing leaves the others' results, with a warning; all of them failing is the search's error.
    if (failed.length === sources.length) throw failed[0].error;
    const warnings = failed.map(({ source, error }) => `${source} results could not be fetched (${error instanceof Error ? error.message : String(error)})`);
    for (const { source } of failed) data[source] = [];

    // scrapeOptions scrape the web results and the news articles (an image's page is not scraped).
    const results: Array<{ url: string; metadata?: FirecrawlDocument['metadata'] }> = [...(data.web ?? []), ...(data.news ?? [])];
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
      const unscraped = scraped.pages.filter((p) => !p.document).length;
      if (unscraped) warnings.push(`${unscraped} of ${urls.length} results could not be scraped (see their metadata.error)`);
    }
    const warning = warnings.length ? warnings.join('; ') : undefined;
    return { success: true, data: version === 'v1' ? (data.web ?? []) : data, creditsUsed: credits, ...(warning ? { warning } : {}) };
  }
}

/** Trawl's parameter names, as the Firecrawl body names them: a refusal names the field the client sent. */
const FIRECRAWL_NAMES: Record<string, string> = { query: 'query', q: 'query', cc: 'country', gl: 'country', setLang: 'lang', hl: 'lang', num: 'limit' };

/** Parses Trawl parameters made from a Firecrawl body; a refusal names the field the client sent, in Firecrawl's shape. */
function asFirecrawl<S extends z.ZodType>(schema: S, input: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue.path.map(String).join('.');
  const field = FIRECRAWL_NAMES[param] ?? param;
  // The engine parameter's own name, where the message starts with it, becomes the field's.
  refuse(field || 'body', issue.message.startsWith(`${param} `) ? issue.message.slice(param.length + 1) : issue.message);
}
