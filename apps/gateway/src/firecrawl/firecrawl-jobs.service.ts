/**
 * Firecrawl's crawls and batch scrapes on Trawl's site crawls and batches (CrawlJobsService): the same jobs, ledger
 * and limits as `POST /crawls` and `/batches`, read back as Firecrawl's status pages (`skip` offsets, absolute `next`
 * links on the public base), errors, cancel and the active list.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError, actionWaitMs, batchBodySchema as trawlBatchSchema, type CrawlJobPage } from '#contracts';
import { CrawlJobsService, siteCrawlSchema, type PageOptions } from '#crawls';
import {
  FIELD_NAMES, FirecrawlInputError, batchBody, batchBodySchema, crawlBody, crawlBodySchema, jobStatus, parseFirecrawl, refuse, storedDocument,
  type FirecrawlDocument, type JobStatusAnswer, type ScrapePlan, type StatusQuery, type Translated,
} from '#firecrawl';
import type { z } from 'zod';
import { crawlLimits } from '../crawls/crawls.controller.js';

export type Version = 'v1' | 'v2';
export type JobKind = 'crawl' | 'batch/scrape';

@Injectable()
export class FirecrawlJobsService {
  private readonly siteSchema;
  private readonly batchSchema;

  constructor(
    private readonly crawls: CrawlJobsService,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.siteSchema = siteCrawlSchema(crawlLimits(config));
    this.batchSchema = trawlBatchSchema(crawlLimits(config));
  }

  async startCrawl(caller: Caller, raw: unknown, base: string, version: Version): Promise<{ success: true; id: string; url: string }> {
    const translated = this.fits(settled(crawlBody(parseFirecrawl(crawlBodySchema, raw), this.config.CRAWL_JOB_MAX_PAGES, this.config.CRAWL_JOB_MAX_CONCURRENCY)), 'scrapeOptions.');
    const body = parseTranslated(this.siteSchema, translated.body);
    const created = await this.crawls.startSite(caller, body, base, `/${version}/crawl`, pageOptions(translated.plan));
    return { success: true, id: created.id, url: `${base}/${version}/crawl/${created.id}` };
  }

  async startBatch(caller: Caller, raw: unknown, base: string, version: Version): Promise<{ success: true; id: string; url: string; invalidURLs?: string[] }> {
    const translated = this.fits(settled(batchBody(parseFirecrawl(batchBodySchema, raw), this.config.CRAWL_JOB_MAX_CONCURRENCY)), '');
    const body = parseTranslated(this.batchSchema, translated.body);
    const created = await this.crawls.startBatch(caller, body, base, `/${version}/batch/scrape`, pageOptions(translated.plan));
    return { success: true, id: created.id, url: `${base}/${version}/batch/scrape/${created.id}`, ...(created.invalid_urls ? { invalidURLs: created.invalid_urls } : {}) };
  }

  /** A crawl's page has CRAWL_TIMEOUT_MS: waits that cannot fit in it are a 400, not a crawl whose every page times out. */
  private fits(translated: Translated, prefix: string): Translated {
    const waits = translated.plan.waitForMs + actionWaitMs(translated.plan.actions ?? []);
    if (translated.plan.actions && waits >= this.config.CRAWL_TIMEOUT_MS) {
      refuse(`${prefix}actions`, `waitFor and the wait actions add up to ${waits} ms, which does not fit in a crawled page's time (CRAWL_TIMEOUT_MS, ${this.config.CRAWL_TIMEOUT_MS} ms)`);
    }
    return translated;
  }

  async status(caller: Caller, id: string, query: StatusQuery, base: string, version: Version, kind: JobKind): Promise<JobStatusAnswer> {
    const skip = query.skip ?? 0;
    const { summary, pages, more } = await this.crawls.pagesAt(caller, id, skip, query.limit);
    const data: FirecrawlDocument[] = pages.map(jobDocument);
    const next = more ? `${base}/${version}/${kind}/${id}?skip=${skip + pages.length}${query.limit ? `&limit=${query.limit}` : ''}` : undefined;
    return jobStatus(summary, data, next);
  }

  /**
   * Firecrawl answers a cancel of a job that has already finished as it answers any other (200, `status:
   * "cancelled"`: its controller marks the job without looking at its state); here the finished job stays as it
   * finished. An unknown job is still a 404.
   */
  async cancel(caller: Caller, id: string): Promise<{ success: true; status: 'cancelled' }> {
    try {
      await this.crawls.cancel(caller, id);
    } catch (error) {
      if (!(error instanceof TrawlError && error.code === ErrorCode.CONFLICT)) throw error;
    }
    return { success: true, status: 'cancelled' };
  }

  async errors(caller: Caller, id: string, base: string): Promise<{ errors: Array<{ id: string; timestamp: string; url: string; code: string; error: string }>; robotsBlocked: string[] }> {
    const found = await this.crawls.errors(caller, id, {}, base);
    return {
      errors: found.errors.map((e, i) => ({ id: `${id}-${i}`, timestamp: e.at, url: e.url, code: e.code, error: e.message })),
      robotsBlocked: found.robots_blocked,
    };
  }

  async active(caller: Caller): Promise<{ success: true; crawls: Array<{ id: string; teamId: string; url: string; options: null }> }> {
    const { crawls } = await this.crawls.active(caller);
    return { success: true, crawls: crawls.map((c) => ({ id: c.id, teamId: caller.accountId, url: c.url ?? '', options: null })) };
  }
}

/** A stored page of a crawl or batch as the Firecrawl document its status pages (and its watcher) carry. */
export function jobDocument(page: CrawlJobPage): FirecrawlDocument {
  return storedDocument(page, {
    formats: { markdown: page.markdown !== undefined, html: page.enhanced_html !== undefined, rawHtml: page.raw_html !== undefined, links: page.links !== undefined, images: false, screenshot: false },
    removeBase64Images: true,
  });
}

function settled(translated: Translated | { path: string; message: string }): Translated {
  if ('path' in translated) refuse(translated.path, translated.message);
  return translated;
}

function pageOptions(plan: ScrapePlan): PageOptions {
  return {
    device: plan.device,
    ...(plan.headers ? { headers: plan.headers } : {}),
    ...(plan.waitForMs ? { waitForMs: plan.waitForMs } : {}),
    ...(plan.scope ? { scope: plan.scope } : {}),
    ...(plan.actions ? { actions: plan.actions } : {}),
  };
}

/** A translated body through Trawl's own schema; a refusal names the field as the client spelled it. */
function parseTranslated<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.output<S> {
  try {
    return parseFirecrawl(schema, body);
  } catch (error) {
    if (!(error instanceof FirecrawlInputError)) throw error;
    const rename = (text: string) => text.replace(/^([a-z_]+)/, (name) => FIELD_NAMES[name] ?? name);
    const issues = error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'string' ? (FIELD_NAMES[p] ?? p) : p)), message: rename(i.message) }));
    throw new FirecrawlInputError(issues[0].message, issues);
  }
}
