/**
 * The routes v1 and v2 share: scrape, crawl and batch scrape with their status, cancel and errors, the active
 * crawls, and the team's credit usage. Each version's controller adds map and search, whose answers differ.
 * Every route answers 200, as the clients require, and errors in Firecrawl's shape (firecrawl-answer.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { Caller } from '#billing';
import type { TrawlConfig } from '#config';
import { parseFirecrawl, refuse, scrapeBodySchema, scrapePlan, statusQuerySchema, type FirecrawlDocument, type JobStatusAnswer } from '#firecrawl';
import { publicBase } from '../http/public-base.js';
import type { FirecrawlJobsService, JobKind, Version } from './firecrawl-jobs.service.js';
import { scrapeUrl, type FirecrawlScrapeService } from './firecrawl-scrape.service.js';
import type { FirecrawlTeamService } from './firecrawl-team.service.js';

export class FirecrawlRoutes {
  constructor(
    protected readonly version: Version,
    protected readonly config: TrawlConfig,
    protected readonly scraper: FirecrawlScrapeService,
    protected readonly jobs: FirecrawlJobsService,
    protected readonly team: FirecrawlTeamService,
  ) {}

  base(request: FastifyRequest): string {
    return publicBase(this.config, request);
  }

  async scrape(caller: Caller, raw: unknown, request: FastifyRequest): Promise<{ success: true; data: FirecrawlDocument }> {
    const { url, ...options } = parseFirecrawl(scrapeBodySchema, raw);
    const plan = scrapePlan(options);
    if ('path' in plan) refuse(plan.path, plan.message);
    // maxAge (ms): a positive integer asks for the page cache, clamped to the longest age the operator allows (a
    // client's default is often longer); anything else is ignored as before, as the cache being off is.
    const maxAge = options.maxAge;
    const maxAgeMs = typeof maxAge === 'number' && Number.isInteger(maxAge) && maxAge > 0 ? Math.min(maxAge, this.config.PAGE_CACHE_MAX_AGE_MS) : undefined;
    const data = await this.scraper.scrape(caller, scrapeUrl(url), plan, this.base(request), `/${this.version}/scrape`, maxAgeMs);
    return { success: true, data };
  }

  startCrawl(caller: Caller, raw: unknown, request: FastifyRequest) {
    return this.jobs.startCrawl(caller, raw, this.base(request), this.version);
  }

  startBatch(caller: Caller, raw: unknown, request: FastifyRequest) {
    return this.jobs.startBatch(caller, raw, this.base(request), this.version);
  }

  status(caller: Caller, id: string, query: unknown, request: FastifyRequest, kind: JobKind): Promise<JobStatusAnswer> {
    return this.jobs.status(caller, id, parseFirecrawl(statusQuerySchema, query), this.base(request), this.version, kind);
  }

  cancel(caller: Caller, id: string) {
    return this.jobs.cancel(caller, id);
  }

  errors(caller: Caller, id: string, request: FastifyRequest) {
    return this.jobs.errors(caller, id, this.base(request));
  }

  active(caller: Caller) {
    return this.jobs.active(caller);
  }

  creditUsage(caller: Caller) {
    return this.team.creditUsage(caller);
  }
}
