/**
 * The `summary` and `json` formats of `/crawl` (issue #36): a crawled page's Markdown sent to the LLM the operator
 * configured (LLM_* settings; #llm does the prompting, trimming to the context, answer checks and one retry).
 * Runs in the gateway, after the page is back: the work is waiting on the model, and the text trimming is a few ms a
 * page. `check` refuses a request before anything is charged (no LLM configured, a bad schema or prompt: 400 naming
 * the parameter); `reservePerPage` is the worst case the call reserves; `run` answers one page, pricing each format
 * that succeeded and none that failed.
 */
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError, type LlmFormats } from '#contracts';
import { CheckedExtraction, LlmError, LlmErrorCode, PageLlm, checkExtractRequest, type LlmClient, type LlmPage, type TokenUsage } from '#llm';
import { Semaphore } from './semaphore.js';

/** The client of the configured endpoint, or null when LLM_BASE_URL is unset. */
export const LLM_CLIENT = Symbol('LLM_CLIENT');

/** A request's LLM formats, checked. */
export interface CheckedLlmFormats {
  summary: boolean;
  json?: CheckedExtraction;
}

export interface PageLlmOutcome {
  summary?: string;
  json?: unknown;
  summary_error?: string;
  json_error?: string;
  /** Tokens used, failed attempts included. */
  usage: TokenUsage;
  /** Credits for the formats that succeeded. */
  credits: number;
}

/** Summaries ask for at most this many answer tokens (LLM_MAX_TOKENS bounds it further). */
const SUMMARY_MAX_TOKENS = 512;

@Injectable()
export class LlmFormatsService implements OnApplicationShutdown {
  private readonly llm: PageLlm | null;
  private readonly slots: Semaphore;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(LLM_CLIENT) private readonly client: LlmClient | null,
  ) {
    this.llm = client
      ? new PageLlm({
          client,
          contextTokens: config.LLM_CONTEXT_TOKENS,
          timeoutMs: config.LLM_TIMEOUT_MS,
          summaryMaxTokens: Math.min(SUMMARY_MAX_TOKENS, config.LLM_MAX_TOKENS),
          extractMaxTokens: config.LLM_MAX_TOKENS,
        })
      : null;
    this.slots = new Semaphore(config.LLM_CONCURRENCY);
  }

  async onApplicationShutdown(): Promise<void> {
    // The real client holds a connection pool; a test's stand-in may have nothing to close.
    const closable = this.client as (LlmClient & { close?: () => Promise<void> }) | null;
    await closable?.close?.();
  }

  get model(): string {
    return this.config.LLM_MODEL ?? '';
  }

  /** Validates the formats before anything is charged or sent: 400 INVALID_PARAMETER naming the parameter (or the setting). */
  check(formats: LlmFormats): CheckedLlmFormats {
    if (!this.llm) {
      const name = formats.summary ? 'summary' : formats.json?.schema !== undefined ? 'json_schema' : 'json_prompt';
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${name} needs an LLM, and this server has none configured (LLM_BASE_URL and LLM_MODEL are unset)`);
    }
    if (!formats.json) return { summary: formats.summary };
    try {
      return { summary: formats.summary, json: checkExtractRequest(formats.json) };
    } catch (error) {
      if (!(error instanceof LlmError) || error.code !== LlmErrorCode.INVALID_SCHEMA) throw error;
      // #llm words its messages "schema …" / "prompt …": the parameters are json_schema and json_prompt.
      const message = error.message.replace(/^(schema|prompt)\b/, (word) => `json_${word}`);
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, message.startsWith('json_') ? message : `json_schema: ${message}`);
    }
  }

  /** Credits for `tokens` (prompt + answer): LLM_CREDITS_PER_1K_TOKENS per 1,000, rounded up. */
  price(tokens: number): number {
    return Math.ceil((tokens * this.config.LLM_CREDITS_PER_1K_TOKENS) / 1000);
  }

  /** The most one format of one page can cost: two attempts, each at most the whole context. */
  reservePerFormat(): number {
    return this.price(2 * this.config.LLM_CONTEXT_TOKENS);
  }

  reservePerPage(formats: CheckedLlmFormats): number {
    return ((formats.summary ? 1 : 0) + (formats.json ? 1 : 0)) * this.reservePerFormat();
  }

  /** The formats of one page, each within LLM_TIMEOUT_MS and the call's `deadline`. */
  async run(page: LlmPage, formats: CheckedLlmFormats, deadline: number): Promise<PageLlmOutcome> {
    const llm = this.llm;
    if (!llm) throw new Error('LlmFormatsService.run without an LLM: check() refuses such requests');
    const outcome: PageLlmOutcome = { usage: { prompt: 0, completion: 0 }, credits: 0 };
    const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    const tasks: Promise<void>[] = [];
    if (formats.summary) {
      tasks.push(
        this.attempt(outcome, signal, () => llm.summarize(page, { signal })).then((result) => {
          if (typeof result === 'string') outcome.summary_error = result;
          else outcome.summary = result.summary;
        }),
      );
    }
    if (formats.json) {
      const request = formats.json;
      tasks.push(
        this.attempt(outcome, signal, () => llm.extractJson(page, request, signal)).then((result) => {
          if (typeof result === 'string') outcome.json_error = result;
          else outcome.json = result.json;
        }),
      );
    }
    await Promise.all(tasks);
    return outcome;
  }

  /** One format: its result (its tokens added to the usage and priced), or its error as `CODE: message` (not priced). */
  private async attempt<R extends { usage: TokenUsage }>(outcome: PageLlmOutcome, signal: AbortSignal, work: () => Promise<R>): Promise<R | string> {
    const release = await this.slots.acquire(signal);
    if (!release) return `${LlmErrorCode.TIMEOUT}: the call's deadline passed while waiting for the LLM`;
    try {
      const result = await work();
      this.count(outcome, result.usage);
      outcome.credits += Math.min(this.reservePerFormat(), this.price(result.usage.prompt + result.usage.completion));
      return result;
    } catch (error) {
      if (error instanceof LlmError) {
        if (error.usage) this.count(outcome, error.usage);
        return `${error.code}: ${error.message}`;
      }
      if (signal.aborted) return `${LlmErrorCode.TIMEOUT}: the call's deadline passed before the LLM answered`;
      return `${LlmErrorCode.UNAVAILABLE}: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      release();
    }
  }

  private count(outcome: PageLlmOutcome, usage: TokenUsage): void {
    outcome.usage = { prompt: outcome.usage.prompt + usage.prompt, completion: outcome.usage.completion + usage.completion };
  }
}
