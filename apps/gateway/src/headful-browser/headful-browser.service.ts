/**
 * `/headful-browser`: one `headful.page` job per distinct URL on the headful engine's queue (headed Chromium behind
 * residential proxies, retried through other proxies when blocked). 50 credits per URL that loaded unblocked; 0
 * for failed or blocked ones. No headful worker alive, or its browser unable to start: 500 HEADFUL_UNAVAILABLE and
 * nothing charged. The route follows `egressFor`: `country` not given and no proxy serving the default goes direct
 * (each result's `egress` and the request log say so); a named country no proxy serves is 500 PROXY_UNAVAILABLE,
 * nothing charged. `run(principal, params)` is the one entry point — REST and an MCP tool share it.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, callDetailOf, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  ErrorCode,
  JobName,
  TrawlError,
  egressFor,
  headfulBrowserParamsSchema,
  type Egress,
  parseQuery,
  withRejected,
  type HeadfulBrowserItem,
  type HeadfulBrowserParams,
  type HeadfulBrowserResponse,
  type HeadfulPagePayload,
  type ResidentialCoverage,
} from '#contracts';
import { selectEngine } from '#contracts';
import { JobDispatcher, type JobOutcome } from '#queue';

/** What the service needs besides the lifecycle and the queue, as narrow ports. */
export interface HeadfulPorts {
  /** Workers of a kind seen recently (WorkerRegistry). */
  workers: { seen(kind: string): Promise<number> };
  /** The account's balance after the call (LedgerRepository). */
  balances: { balance(accountId: string): Promise<number | null> };
  /** A link to a stored screenshot: signed and served here (local store), or presigned by the bucket (S3). */
  links: { urlFor(key: string, origin: string): string };
  coverage: ResidentialCoverage;
}
export const HEADFUL_PORTS = Symbol('HEADFUL_PORTS');

@Injectable()
export class HeadfulBrowserService {
  private readonly schema;
  private readonly engine = selectEngine({ headful: true, residentialProxy: true });

  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(HEADFUL_PORTS) private readonly ports: HeadfulPorts,
  ) {
    this.schema = headfulBrowserParamsSchema(config.HEADFUL_MAX_URLS);
  }

  /** Validates raw query parameters (400 naming the parameter, before anything is charged). */
  parse(query: unknown): HeadfulBrowserParams {
    return parseQuery(this.schema, query);
  }

  /** `origin` (e.g. `https://api.example.com`) prefixes screenshot links when PUBLIC_BASE_URL is not set. */
  async run(principal: Caller, params: HeadfulBrowserParams, origin = ''): Promise<HeadfulBrowserResponse> {
    const { body } = await this.lifecycle.run(
      principal,
      {
        endpoint: '/headful-browser',
        reserve: params.urls.length * COSTS.headful,
        insufficient: ErrorCode.CREDITS_EXHAUSTED,
        deadlineMs: this.config.HEADFUL_TIMEOUT_MS + 15_000,
      },
      async (call) => {
        const egress = egressFor(this.ports.coverage, params.country, params.countryNamed, 'residential proxy');
        if ((await this.ports.workers.seen(this.engine.workerKind)) === 0) {
          throw unavailable('no headful worker is running (start worker-headful, or add headful to STANDALONE_WORKERS)');
        }
        const payloads: HeadfulPagePayload[] = params.urls.map((url) => ({
          callId: call.callId,
          url,
          country: params.country,
          format: params.output_format,
          screenshot: params.screenshot,
          ...(egress.via === 'direct' ? { direct: true } : {}),
          timeoutMs: this.config.HEADFUL_TIMEOUT_MS,
        }));
        const outcomes = await this.dispatcher.runAll(this.engine.queue, JobName.headfulPage, payloads, call.deadline);
        if (outcomes.every((o) => failureCode(o) === ErrorCode.HEADFUL_UNAVAILABLE)) {
          throw unavailable('its browser could not start (the virtual display or Chromium failed to launch; the worker log says why)');
        }
        // A malformed entry of urls fails on its own, at its place (url-list.ts): not blocked, 0 credits.
        const fetched = outcomes.map((outcome, i) => this.toItem(params, params.urls[i], outcome, origin, egress));
        const data = withRejected(fetched, params.urls, (rejected): HeadfulBrowserItem => ({ url: rejected.url, blocked: false, egress, error: rejected.error }));
        const successful = data.filter((item) => item.error === undefined).length;
        const detail = { ...callDetailOf(data), egress };
        return { body: { data, credits_used: successful * COSTS.headful }, charge: successful * COSTS.headful, detail };
      },
    );
    const remaining = (await this.ports.balances.balance(principal.accountId)) ?? 0;
    return { status: 'success', data: body.data, credits_used: body.credits_used, credits_remaining: remaining };
  }

  private toItem(params: HeadfulBrowserParams, url: string, outcome: JobOutcome<typeof JobName.headfulPage>, origin: string, egress: Egress): HeadfulBrowserItem {
    if (!outcome.ok) return { url, blocked: false, error: `${outcome.error.code}: ${outcome.error.message}`, egress };
    const result = outcome.result;
    if (!result.ok) return { url, blocked: result.blocked, error: `${result.error.code}: ${result.error.message}`, egress };
    const item: HeadfulBrowserItem = { url, [params.output_format]: result.content, blocked: false, egress };
    if (result.screenshotKey) item.screenshot = this.ports.links.urlFor(result.screenshotKey, origin);
    return item;
  }
}

function failureCode(outcome: JobOutcome<typeof JobName.headfulPage>): string | null {
  if (!outcome.ok) return outcome.error.code;
  return outcome.result.ok ? null : outcome.result.error.code;
}

function unavailable(why: string): TrawlError {
  return new TrawlError(ErrorCode.HEADFUL_UNAVAILABLE, `The headful browser service is unavailable: ${why}. Nothing was charged.`, 'permanent');
}
