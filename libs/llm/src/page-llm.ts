/**
 * The `summary` and `json` formats for one page: the page trimmed to the model's context with the chunker (the
 * chunks most relevant to the prompt or schema first), one call, the answer checked, one retry that quotes what
 * was wrong, then a typed error. Everything is bounded: the request is checked before anything is sent, the page to
 * the context window, the answer to maxTokens, and both attempts together to `timeoutMs`.
 */
import { countTokens, fitMarkdown } from '#chunks';
import { addUsage, type ChatMessage, type JsonSchemaFormat, type LlmClient, type TokenUsage } from './llm-client.js';
import { LlmError, LlmErrorCode } from './llm-error.js';
import { compileSchema, type CompiledSchema } from './json-schema.js';
import { parseJsonAnswer } from './json-answer.js';
import { correction, extractionInstructions, pageMessage, relevanceQuery, summaryInstructions, type LlmPage } from './prompts.js';

export interface PageLlmOptions {
  client: LlmClient;
  /** The model's context window in tokens (prompt and answer together). */
  contextTokens: number;
  /** Time for one format on one page, every attempt included. */
  timeoutMs: number;
  /** Answer limit for summaries (default 512 tokens). */
  summaryMaxTokens?: number;
  /** Answer limit for JSON extraction (default 2048 tokens). */
  extractMaxTokens?: number;
}

export const LLM_LIMITS = {
  contextTokens: { min: 2048, max: 2_000_000 },
  promptChars: 4000,
  summaryWords: { default: 150, min: 10, max: 1000 },
  /** Share of the context kept free: the server's tokenizer is not ours, and counts differ by a few percent. */
  contextMargin: 0.1,
  /** Below this many tokens for the page, the context is too small to be worth a call. */
  minPageTokens: 256,
} as const;

export interface ExtractRequest {
  /** A JSON Schema (draft 2020-12 or draft-07) the answer must be valid against. */
  schema?: unknown;
  /** What to extract, in words. */
  prompt?: string;
}

/** A request already checked (see checkExtractRequest): what extractJson needs. */
export class CheckedExtraction {
  constructor(
    readonly schema?: CompiledSchema,
    readonly prompt?: string,
  ) {}
}

export interface LlmResult {
  usage: TokenUsage;
  /** Calls made: 1, or 2 after a retry. */
  attempts: number;
  /** Tokens of page text sent (o200k_base), and whether the page had to be cut to fit the context. */
  pageTokens: number;
  trimmed: boolean;
}

export interface SummaryResult extends LlmResult {
  summary: string;
}

export interface ExtractResult extends LlmResult {
  json: unknown;
}

function checkPrompt(prompt: unknown): string | undefined {
  if (prompt === undefined) return undefined;
  if (typeof prompt !== 'string' || prompt.trim() === '') throw new LlmError(LlmErrorCode.INVALID_SCHEMA, 'prompt must be a non-empty string');
  if (prompt.length > LLM_LIMITS.promptChars) throw new LlmError(LlmErrorCode.INVALID_SCHEMA, `prompt is longer than ${LLM_LIMITS.promptChars} characters`);
  return prompt;
}

/** Validates a `json` format request before anything is charged or sent; throws LLM_INVALID_SCHEMA. */
export function checkExtractRequest(request: ExtractRequest): CheckedExtraction {
  const prompt = checkPrompt(request.prompt);
  if (request.schema === undefined && prompt === undefined) throw new LlmError(LlmErrorCode.INVALID_SCHEMA, 'json format needs a schema, a prompt, or both');
  return new CheckedExtraction(request.schema === undefined ? undefined : compileSchema(request.schema), prompt);
}

/** Validates a `summary` format's optional prompt; throws LLM_INVALID_SCHEMA. */
export function checkSummaryPrompt(prompt: unknown): string | undefined {
  return checkPrompt(prompt);
}

type Verdict = { ok: true; value: unknown } | { ok: false; errors: string[] };

interface Call {
  page: LlmPage;
  instructions: ChatMessage;
  /** Ranks the page's chunks when it is too long. */
  query: string;
  maxTokens: number;
  jsonSchema?: JsonSchemaFormat;
  accept(text: string): Verdict;
  signal?: AbortSignal;
}

export class PageLlm {
  private readonly contextTokens: number;
  private readonly summaryMaxTokens: number;
  private readonly extractMaxTokens: number;

  constructor(private readonly options: PageLlmOptions) {
    const { min, max } = LLM_LIMITS.contextTokens;
    this.contextTokens = Math.min(max, Math.max(min, Math.floor(options.contextTokens)));
    this.summaryMaxTokens = options.summaryMaxTokens ?? 512;
    this.extractMaxTokens = options.extractMaxTokens ?? 2048;
  }

  async summarize(page: LlmPage, opts: { prompt?: string; maxWords?: number; signal?: AbortSignal } = {}): Promise<SummaryResult> {
    const prompt = checkSummaryPrompt(opts.prompt);
    const { default: d, min, max } = LLM_LIMITS.summaryWords;
    const maxWords = Math.min(max, Math.max(min, Math.floor(opts.maxWords ?? d)));
    const { value, ...result } = await this.run({
      page,
      instructions: summaryInstructions(maxWords, prompt),
      query: prompt ?? '',
      maxTokens: Math.min(this.summaryMaxTokens, maxWords * 3 + 64),
      accept: (text) => (text.trim() ? { ok: true, value: text.trim() } : { ok: false, errors: ['the summary is empty'] }),
      signal: opts.signal,
    });
    return { summary: value as string, ...result };
  }

  /** `request` is checked here when it has not been already (checkExtractRequest, at the edge, before charging). */
  async extractJson(page: LlmPage, request: ExtractRequest | CheckedExtraction, signal?: AbortSignal): Promise<ExtractResult> {
    const checked = request instanceof CheckedExtraction ? request : checkExtractRequest(request);
    const { schema, prompt } = checked;
    const { value, ...result } = await this.run({
      page,
      instructions: extractionInstructions(schema?.schema, prompt),
      query: relevanceQuery(prompt, schema?.schema),
      maxTokens: this.extractMaxTokens,
      jsonSchema: schema ? { name: 'extraction', schema: schema.schema } : undefined,
      accept: (text) => {
        const parsed = parseJsonAnswer(text);
        if (!parsed.ok) return { ok: false, errors: [parsed.error] };
        if (schema) {
          const errors = schema.check(parsed.value);
          return errors.length ? { ok: false, errors } : parsed;
        }
        return parsed.value !== null && typeof parsed.value === 'object' ? parsed : { ok: false, errors: ['the answer must be a JSON object'] };
      },
      signal,
    });
    return { json: value, ...result };
  }

  private async run(call: Call): Promise<LlmResult & { value: unknown }> {
    const deadline = Date.now() + this.options.timeoutMs;
    const margin = Math.ceil(this.contextTokens * LLM_LIMITS.contextMargin);
    // Instructions, the page's URL and title, and the chat format's few tokens per message.
    const fixed = countTokens(call.instructions.content) + countTokens(pageMessage(call.page, '').content) + 16;
    let usage: TokenUsage = { prompt: 0, completion: 0 };
    let followUp: ChatMessage[] = [];
    for (let attempt = 1; ; attempt++) {
      const followUpTokens = followUp.reduce((sum, m) => sum + countTokens(m.content) + 4, 0);
      const budget = this.contextTokens - call.maxTokens - fixed - followUpTokens - margin;
      if (budget < LLM_LIMITS.minPageTokens) {
        throw new LlmError(LlmErrorCode.REJECTED, `The LLM context (${this.contextTokens} tokens) leaves no room for the page after the instructions and the answer`);
      }
      const fitted = fitMarkdown(call.page.markdown, call.query, budget);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new LlmError(LlmErrorCode.TIMEOUT, `The LLM did not answer within ${this.options.timeoutMs} ms`, 'transient');
      const messages = [call.instructions, pageMessage(call.page, fitted.text), ...followUp];
      const completion = await this.options.client.complete({ messages, jsonSchema: call.jsonSchema, maxTokens: call.maxTokens, timeoutMs: remaining, signal: call.signal });
      usage = addUsage(usage, completion.usage);
      const verdict = call.accept(completion.text);
      if (verdict.ok) return { value: verdict.value, usage, attempts: attempt, pageTokens: fitted.tokens, trimmed: fitted.trimmed };
      if (attempt === 2) {
        throw new LlmError(LlmErrorCode.INVALID_OUTPUT, `The LLM answer was invalid twice: ${verdict.errors.join('; ')}`, 'permanent', usage);
      }
      followUp = [{ role: 'assistant', content: completion.text }, correction(verdict.errors)];
    }
  }
}
