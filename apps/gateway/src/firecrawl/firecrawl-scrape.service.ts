/**
 * Firecrawl's scrape on Trawl's page engines: one `crawl.page` job on the engine the plan needs, metered like `/crawl`
 * (1 credit over plain HTTP, 10 rendered, 50 on the headed browser; nothing for a failure). `proxy`: `basic` is the
 * cheapest engine that can do what was asked; `auto` moves up the engine table — plain HTTP, then Chromium, then the
 * headed browser when a headful worker is alive — while the block detector says the page was an anti-bot answer;
 * `stealth` is the headed browser. The metadata says which engine served the page. An `auto` scrape reserves its
 * ladder's top price when the balance covers it, else the price of the highest rung the balance covers, and climbs only
 * that far (`climbable`): an account with 20 credits still gets a plain page for 1, and a page still blocked at the
 * highest rung it could pay for answers UPSTREAM_BLOCKED at 0 credits, as at the top of a whole ladder.
 *
 * The LLM formats (`summary`, `json`) go through the same LlmFormatsService as `/crawl`'s: checked before anything is
 * reserved (no LLM configured, a bad schema: 400 naming the Firecrawl field), their worst case reserved with the
 * page's, and priced by their tokens on top of the page. A format that fails fails the scrape, as Firecrawl's does
 * (500 with the LLM's code: FormatFailedError), and nothing is charged. The `highlights` format is the page's
 * query-relevant chunks (the worker ranks them, as for `/crawl`'s `query`), at no extra charge.
 *
 * `actions` run on a browser engine (never plain HTTP): Chromium, or the headed browser with `stealth` (or when `auto`
 * climbs to it), priced as the page on that engine — a rendered page's 10 credits, 50 headed — whatever the actions
 * do. Their screenshots are published as signed links, as the screenshot format is. A scrape with actions is never
 * served from, or stored in, the page cache (its page is the one the actions left). A failed action fails the scrape
 * (ACTION_FAILED) and nothing is charged.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, callDetailOf, type CallContext, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  CHUNK_PARAMS, EngineId, ErrorCode, JobName, TrawlError, engineRow, normaliseUrl,
  type CrawlPagePayload, type CrawlPageResult, type EngineRow, type PageChunks,
} from '#contracts';
import { FirecrawlInputError, FormatFailedError, plansRendering, toDocument, type DocumentActions, type FirecrawlDocument, type ScrapePlan } from '#firecrawl';
import type { LlmPage } from '#llm';
import { JobDispatcher, WorkerRegistry, type JobOutcome } from '#queue';
import { LocalScreenshotStore, ScreenshotLinks, s3StoreFromConfig, type CaptureKind } from '#storage';
import { responseChunks } from '../chunks/result-chunks.js';
import { PageCache } from '../page-cache/page-cache.js';
import { pageCacheKey } from '../page-cache/page-cache-key.js';
import { LlmFormatsService, type CheckedLlmFormats } from '../llm/llm-formats.service.js';

const COST: Record<EngineId, number> = { http: COSTS.crawlHttp, chromium: COSTS.crawlRender, headful: COSTS.headful };
const PROXY_USED: Record<EngineId, string> = { http: 'basic', chromium: 'basic', headful: 'stealth' };

export interface ScrapedPage {
  url: string;
  document?: FirecrawlDocument;
  /** What the LLM formats read: the page's Markdown (asked for or not) and title. */
  source?: LlmPage;
  /** Why there is no document (`CODE: message`). */
  error?: TrawlError;
}

/** How long whether a headful worker is alive is trusted. */
const HEADFUL_SEEN_MS = 1_000;

@Injectable()
export class FirecrawlScrapeService {
  private headful = { at: 0, alive: false };
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    private readonly workers: WorkerRegistry,
    private readonly links: ScreenshotLinks,
    @Inject(LocalScreenshotStore) private readonly screenshots: LocalScreenshotStore,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    private readonly llm: LlmFormatsService,
    private readonly cache: PageCache,
  ) {}

  /**
   * One URL; a page that cannot be scraped, or whose LLM format failed, is the call's error (nothing charged).
   * `maxAgeMs` (Firecrawl's `maxAge`): a page the page cache holds for the same plan, fetched at most that long ago,
   * answers at COSTS.cacheHit (`metadata.cacheState: hit`, `cachedAt`), and a page scraped is stored; never with the
   * plan's own headers. The LLM formats run on a cached page as on a fetched one (they are not cached).
   */
  async scrape(caller: Caller, url: string, plan: ScrapePlan, base: string, endpoint: string, maxAgeMs?: number): Promise<FirecrawlDocument> {
    // Checked before the call starts: an LLM format this server cannot run is a 400 and nothing is reserved.
    const llm = plan.llm ? this.checkLlm(plan) : undefined;
    const ladder = await this.ladder(plan);
    const timeoutMs = this.timeoutOf(plan);
    const llmMs = llm ? 2 * this.config.LLM_TIMEOUT_MS + 2_000 : 0;
    const scope = this.config.PAGE_CACHE_SCOPE === 'shared' ? 'shared' : caller.accountId;
    // The ladder is part of the key: the same plan climbs the same engines, so it is served the same page.
    const cacheKey = maxAgeMs !== undefined && this.cache.enabled && !plan.actions ? pageCacheKey(this.payload('', caller.accountId, url, plan, timeoutMs), ladder.map((e) => e.id).join('>')) : null;
    const hit = cacheKey && maxAgeMs ? await this.cache.get(scope, cacheKey, maxAgeMs) : null;
    const llmReserve = llm ? this.llm.reservePerPage(llm) : 0;
    // What each rung needs reserved (the ladder's prices rise): the top when the balance covers it, else the most the
    // balance covers — the ladder then climbs only as far as that reservation pays for (climbable).
    const rungs = ladder.map((e) => COST[e.id] + llmReserve);
    const { body } = await this.lifecycle.run(
      caller,
      {
        endpoint,
        reserve: hit ? COSTS.cacheHit + llmReserve : rungs[rungs.length - 1],
        ...(hit ? {} : { lesserReserves: rungs.slice(0, -1) }),
        insufficient: ErrorCode.CREDITS_EXHAUSTED,
        deadlineMs: ladder.length * (timeoutMs + 2_000) + 5_000 + llmMs,
      },
      async (call) => {
        if (hit) {
          const cachedAt = new Date(hit.cachedAt).toISOString();
          const page = await this.pageOf({ ok: true, result: hit.result }, url, plan, base, { scrapeId: call.callId, creditsUsed: COSTS.cacheHit, cacheState: 'hit', cachedAt });
          if (page.document) {
            if (!llm) return { body: page.document, charge: COSTS.cacheHit };
            return this.withLlm(url, page.document, page.source ?? { url, markdown: '' }, llm, COSTS.cacheHit, call.deadline);
          }
        }
        let failure: TrawlError | undefined;
        const climb = climbable(ladder, (e) => COST[e.id] + llmReserve, call.meter.reserved);
        for (const [i, engine] of climb.entries()) {
          const [outcome] = await this.dispatcher.runAll(engine.queue, JobName.crawlPage, [this.payload(call.callId, call.principal.accountId, url, plan, timeoutMs)], call.deadline);
          const fetchedAt = Date.now();
          const cacheState = cacheKey ? { cacheState: 'miss', cachedAt: new Date(fetchedAt).toISOString() } : {};
          const page = await this.pageOf(outcome, url, plan, base, { scrapeId: call.callId, creditsUsed: COST[engine.id], proxyUsed: PROXY_USED[engine.id], engine: engine.id, ...cacheState });
          if (page.document && cacheKey && outcome.ok && outcome.result.ok) await this.cache.put(scope, cacheKey, outcome.result, fetchedAt);
          if (page.document) {
            if (!llm) return { body: page.document, charge: COST[engine.id] };
            return this.withLlm(url, page.document, page.source ?? { url, markdown: '' }, llm, COST[engine.id], call.deadline);
          }
          failure = page.error;
          // Only an anti-bot answer is worth a costlier engine; every other failure would fail there too.
          // A ladder cut short by the reservation ends on the block as a full one does (UPSTREAM_BLOCKED, 0 credits).
          if (failure?.code !== ErrorCode.UPSTREAM_BLOCKED || i === climb.length - 1) break;
        }
        throw failure ?? new TrawlError(ErrorCode.INTERNAL, 'The page could not be scraped');
      },
    );
    return body;
  }

  /** The plan's LLM formats, checked; a refusal names the field as the client sent it (`formats.1.schema`, `jsonOptions.prompt`). */
  private checkLlm(plan: ScrapePlan): CheckedLlmFormats {
    try {
      return this.llm.check(plan.llm!);
    } catch (error) {
      if (!(error instanceof TrawlError) || error.code !== ErrorCode.INVALID_PARAMETER) throw error;
      if (error.message.includes('needs an LLM')) {
        const name = plan.llm?.summary ? 'summary' : 'json';
        const message = `format ${name} needs an LLM, and this server has none configured (LLM_BASE_URL and LLM_MODEL are unset): nothing was charged`;
        throw new FirecrawlInputError(message, [{ path: (plan.llmPaths?.[name] ?? 'formats').split('.'), message }]);
      }
      // #llm's and /crawl's words name json_schema and json_prompt: here they are the json format's schema and prompt.
      const json = plan.llmPaths?.json ?? 'formats';
      const message = error.message.replace(/^json_(schema|prompt)\b/, (_all, field: string) => `${json}.${field}`);
      const path = message.split(' ')[0].replace(/:$/, '');
      throw new FirecrawlInputError(message, [{ path: path.split('.'), message }]);
    }
  }

  /** The page's LLM formats onto its document; a failed format fails the scrape (nothing charged, as for a failed page). */
  private async withLlm(url: string, document: FirecrawlDocument, source: LlmPage, llm: CheckedLlmFormats, pageCost: number, deadline: number) {
    const outcome = await this.llm.run(source, llm, deadline);
    const failed = outcome.summary_error !== undefined ? ['summary', outcome.summary_error] : outcome.json_error !== undefined ? ['json', outcome.json_error] : undefined;
    if (failed) throw new FormatFailedError(failed[0], failed[1]);
    if (outcome.summary !== undefined) document.summary = outcome.summary;
    if (llm.json) document.json = outcome.json;
    const charge = pageCost + outcome.credits;
    document.metadata.creditsUsed = charge;
    const usage = { model: this.llm.model, prompt_tokens: outcome.usage.prompt, completion_tokens: outcome.usage.completion, credits: outcome.credits };
    return { body: document, charge, detail: { ...callDetailOf([{ url, status_code: Number(document.metadata.statusCode) }]), llm: usage } };
  }

  /**
   * Several URLs in one metered call on the plan's cheapest engine (a search's results): each a document or an
   * error; charged per document.
   */
  async scrapeAll(call: CallContext, urls: string[], plan: ScrapePlan, base: string): Promise<{ pages: ScrapedPage[]; credits: number }> {
    const engine = (await this.ladder({ ...plan, proxy: 'basic' }))[0];
    const timeoutMs = this.timeoutOf(plan);
    const outcomes = await this.dispatcher.runAll(engine.queue, JobName.crawlPage, urls.map((u) => this.payload(call.callId, call.principal.accountId, u, plan, timeoutMs)), call.deadline);
    const pages = await Promise.all(outcomes.map((o, i) => this.pageOf(o, urls[i], plan, base, { scrapeId: call.callId, creditsUsed: COST[engine.id], proxyUsed: 'basic', engine: engine.id })));
    return { pages, credits: pages.filter((p) => p.document).length * COST[engine.id] };
  }

  /** The engines to try, in order. */
  private async ladder(plan: ScrapePlan): Promise<EngineRow[]> {
    const renders = plansRendering(plan);
    const headful = () => this.headfulAlive();
    if (plan.proxy === 'stealth') {
      if (!(await headful())) throw new TrawlError(ErrorCode.HEADFUL_UNAVAILABLE, 'proxy stealth needs the headed browser, and no headful worker is running: nothing was charged');
      return [engineRow(EngineId.headful)];
    }
    const first = engineRow(renders ? EngineId.chromium : EngineId.http);
    // Headers are sent over plain HTTP only: no escalation to a browser that would drop them.
    if (plan.proxy === 'basic' || plan.headers) return [first];
    const ladder = renders ? [first] : [first, engineRow(EngineId.chromium)];
    if (await headful()) ladder.push(engineRow(EngineId.headful));
    return ladder;
  }

  /**
   * Whether a headful worker is alive, read from the registry at most once a second (every `auto` scrape asks, and a
   * Redis round trip per call was a tenth of a small page's scrape); a worker that just started or died is seen within it.
   */
  private async headfulAlive(): Promise<boolean> {
    if (Date.now() - this.headful.at > HEADFUL_SEEN_MS) {
      this.headful = { at: Date.now(), alive: (await this.workers.seen(engineRow(EngineId.headful).workerKind)) > 0 };
    }
    return this.headful.alive;
  }

  private timeoutOf(plan: ScrapePlan): number {
    return plan.timeoutMs ?? this.config.CRAWL_TIMEOUT_MS;
  }

  private payload(callId: string, accountId: string, url: string, plan: ScrapePlan, timeoutMs: number): CrawlPagePayload {
    return {
      callId,
      accountId,
      url,
      device: plan.device,
      // The LLM formats read the page's Markdown, asked for or not.
      formats: plan.llm ? { ...plan.formats, markdown: true } : plan.formats,
      ...(plan.geolocation ? { geolocation: plan.geolocation } : {}),
      ...(plan.document.screenshot ? { screenshot: true, screenshotFullPage: plan.document.screenshot === 'full' } : {}),
      ...(plan.document.links ? { links: true } : {}),
      ...(plan.highlights ? { chunks: { query: plan.highlights.query, perPage: CHUNK_PARAMS.chunksPerPage.default } } : {}),
      ...(plan.headers ? { headers: plan.headers } : {}),
      ...(plan.waitForMs ? { waitForMs: plan.waitForMs } : {}),
      ...(plan.scope ? { scope: plan.scope } : {}),
      ...(plan.actions ? { actions: plan.actions } : {}),
      timeoutMs,
    };
  }

  private async pageOf(outcome: JobOutcome<typeof JobName.crawlPage>, url: string, plan: ScrapePlan, base: string, metadata: Record<string, unknown>): Promise<ScrapedPage> {
    if (!outcome.ok) return { url, error: outcome.error };
    const result: CrawlPageResult = outcome.result;
    if (!result.ok) return { url, error: new TrawlError(result.error.code, result.error.message, result.error.kind) };
    const screenshotUrl = result.screenshot ? await this.publish(result.screenshot, base, 'png') : undefined;
    const actions: DocumentActions | undefined = result.actions
      ? {
          ...result.actions,
          screenshots: await Promise.all(result.actions.screenshots.map((png) => this.publish(png, base, 'png'))),
          pdfs: await Promise.all((result.actions.pdfs ?? []).map((pdf) => this.publish(pdf, base, 'pdf'))),
        }
      : undefined;
    const document = toDocument(
      {
        url,
        finalUrl: result.finalUrl,
        statusCode: result.status_code,
        ...(result.raw_html !== undefined ? { raw_html: result.raw_html } : {}),
        ...(result.enhanced_html !== undefined ? { enhanced_html: result.enhanced_html } : {}),
        ...(result.markdown !== undefined ? { markdown: result.markdown } : {}),
        ...(result.metadata ? { metadata: result.metadata } : {}),
        ...(result.links ? { links: result.links.map((l) => l.url) } : {}),
        ...(screenshotUrl ? { screenshotUrl } : {}),
        ...(actions ? { actions } : {}),
      },
      { formats: plan.document, removeBase64Images: plan.removeBase64Images, metadata },
    );
    if (plan.highlights) document.highlights = highlightsOf(result.chunks);
    if (!plan.llm) return { url, document };
    return { url, document, source: { url, ...(result.metadata?.title ? { title: result.metadata.title } : {}), markdown: result.markdown ?? '' } };
  }

  /** Stores a screenshot and links to it (signed, expiring), as /headful-browser does. */
  private async publish(base64: string, origin: string, kind: CaptureKind): Promise<string> {
    const bytes = Buffer.from(base64, 'base64');
    if (this.config.SCREENSHOT_STORE === 's3') {
      const s3 = s3StoreFromConfig(this.config);
      return s3.urlFor(await s3.put(bytes, kind), this.config.SCREENSHOT_URL_TTL_MS);
    }
    return `${origin}${this.links.sign(await this.screenshots.put(bytes, kind))}`;
  }
}

/**
 * The highlights format: the page's chunks most relevant to the query (as `/crawl`'s `query` returns them, within its
 * default token budget), best first, those without a query term left out; their text, blank lines between.
 */
function highlightsOf(chunks: PageChunks | undefined): string {
  const [page] = responseChunks([chunks], CHUNK_PARAMS.maxTokens.default).pages;
  return page.filter((c) => c.score > 0).map((c) => c.text).join('\n\n');
}

/**
 * The engines of a ladder (cheapest first) that `reserved` pays for, from the bottom up to the first it does not cover;
 * an `auto` scrape whose balance did not cover the whole ladder climbs only these.
 */
export function climbable(ladder: readonly EngineRow[], price: (engine: EngineRow) => number, reserved: number): EngineRow[] {
  const reach = ladder.findIndex((engine) => price(engine) > reserved);
  return reach === -1 ? [...ladder] : ladder.slice(0, reach);
}

/** A scrape URL, normalised, or the 400 naming it. */
export function scrapeUrl(raw: string, name = 'url'): string {
  const url = normaliseUrl(raw.trim());
  if (typeof url !== 'string') throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${name}: ${url.error}`);
  return url;
}
