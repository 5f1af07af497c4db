/** `/crawl`: one queued job per distinct URL; 1 credit per successful URL over HTTP, 10 rendered, 0 for failures. */
import { Inject, Injectable } from '@nestjs/common';
import { COSTS, type Principal } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, JobName, QueueName, type CrawlPagePayload, type CrawlPageResult } from '#contracts';
import { JobDispatcher, type JobOutcome } from '#queue';
import { RequestLifecycle } from '../lifecycle/request-lifecycle.service.js';
import type { CrawlParams } from './crawl.params.js';

export interface CrawlResultItem {
  url: string;
  status_code?: number;
  raw_html?: string;
  enhanced_html?: string;
  markdown?: string;
  page_text?: string;
  screenshot?: string;
  error?: string;
}

export interface CrawlResponse {
  results: CrawlResultItem[];
  credits: number;
  successful_pages: number;
}

@Injectable()
export class CrawlService {
  constructor(
    private readonly lifecycle: RequestLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  async crawl(principal: Principal, params: CrawlParams, meter: { credits?: number; requestId?: string } = {}): Promise<CrawlResponse> {
    const unitCost = params.render_js ? COSTS.crawlRender : COSTS.crawlHttp;
    const { body } = await this.lifecycle.run(
      principal,
      { reserve: params.urls.length * unitCost, insufficient: ErrorCode.CREDITS_EXHAUSTED },
      meter,
      async (requestId) => {
        const deadline = Date.now() + this.config.REQUEST_DEADLINE_MS;
        const payloads: CrawlPagePayload[] = params.urls.map((url) => ({
          requestId,
          url,
          device: 'desktop',
          formats: {
            raw_html: params.raw_html,
            enhanced_html: params.enhanced_html,
            markdown: params.markdown,
            page_text: params.page_text,
          },
          geolocation: params.geolocation,
          screenshot: params.render_js && params.screenshot,
          screenshotFullPage: params.render_js && params.screenshot && params.screenshot_full_page,
          timeoutMs: this.config.CRAWL_TIMEOUT_MS,
        }));
        const queue = params.render_js ? QueueName.render : QueueName.http;
        const outcomes = await this.dispatcher.runAll(queue, JobName.crawlPage, payloads, deadline);
        const results = outcomes.map((outcome, i) => toResultItem(params.urls[i], outcome));
        const successful = results.filter((r) => r.error === undefined).length;
        const credits = successful * unitCost;
        return { body: { results, credits, successful_pages: successful }, charge: credits };
      },
    );
    return body;
  }
}

function toResultItem(url: string, outcome: JobOutcome<typeof JobName.crawlPage>): CrawlResultItem {
  if (!outcome.ok) return { url, error: `${outcome.error.code}: ${outcome.error.message}` };
  const result: CrawlPageResult = outcome.result;
  if (!result.ok) {
    const failed: CrawlResultItem = { url };
    if (result.status_code !== undefined) failed.status_code = result.status_code;
    failed.error = `${result.error.code}: ${result.error.message}`;
    return failed;
  }
  const item: CrawlResultItem = { url, status_code: result.status_code };
  if (result.raw_html !== undefined) item.raw_html = result.raw_html;
  if (result.enhanced_html !== undefined) item.enhanced_html = result.enhanced_html;
  if (result.markdown !== undefined) item.markdown = result.markdown;
  if (result.page_text !== undefined) item.page_text = result.page_text;
  if (result.screenshot !== undefined) item.screenshot = result.screenshot;
  return item;
}
