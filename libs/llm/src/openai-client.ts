/**
 * An OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio…) over undici:
 * one POST to `<baseUrl>/chat/completions`, a deadline over the whole call, the answer read up to a size cap, and
 * HTTP and network failures turned into LlmErrors. Servers differ in the parameters they take: one that refuses
 * `response_format` (the schema then travels in the prompt only), `max_tokens` (newer OpenAI models want
 * `max_completion_tokens`) or `temperature` (reasoning models) is asked again without it, and remembered.
 */
import { Agent, request } from 'undici';
import { countTokens } from '#chunks';
import type { Completion, CompletionRequest, LlmClient, TokenUsage } from './llm-client.js';
import { LlmError, LlmErrorCode } from './llm-error.js';

export interface OpenAiClientOptions {
  /** Up to and including the version segment, e.g. http://127.0.0.1:11434/v1 or https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Largest response body read, in bytes (default 1 MiB). */
  maxResponseBytes?: number;
  /** `auto` (default): response_format first, the prompt alone if the server refuses it; `instructions`: never send it. */
  structuredOutput?: 'auto' | 'instructions';
  /** Sampling temperature (default 0: extraction wants the likeliest answer). */
  temperature?: number;
  /** Concurrent connections to the endpoint (default 8). */
  connections?: number;
}

export const CLIENT_LIMITS = {
  maxResponseBytes: { default: 1024 * 1024, min: 4096, max: 16 * 1024 * 1024 },
  timeoutMs: { min: 50, max: 600_000 },
  maxTokens: { min: 1, max: 65_536 },
  /** Bytes of an error body kept for the message. */
  errorBody: 8192,
} as const;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

interface ChatResponse {
  choices?: { message?: { content?: unknown }; finish_reason?: string }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

export class OpenAiCompatibleClient implements LlmClient {
  private readonly url: string;
  private readonly agent: Agent;
  private readonly maxResponseBytes: number;
  /** What this server takes, learnt from its refusals. */
  private readonly dialect: Dialect;

  constructor(private readonly options: OpenAiClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`LLM base URL must be http(s): ${options.baseUrl}`);
    if (!options.model) throw new Error('LLM model is required');
    this.url = `${base.href.replace(/\/+$/, '')}/chat/completions`;
    const { default: d, min, max } = CLIENT_LIMITS.maxResponseBytes;
    this.maxResponseBytes = clamp(options.maxResponseBytes ?? d, min, max);
    this.dialect = { responseFormat: options.structuredOutput !== 'instructions', maxTokensField: 'max_tokens', temperature: true };
    this.agent = new Agent({ connections: options.connections ?? 8 });
  }

  async complete(req: CompletionRequest): Promise<Completion> {
    const timeoutMs = clamp(req.timeoutMs, CLIENT_LIMITS.timeoutMs.min, CLIENT_LIMITS.timeoutMs.max);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
    // Each refusal drops or renames one parameter, so there are at most three of them before a real answer.
    for (let adaptations = 0; ; adaptations++) {
      try {
        return await this.send(req, signal);
      } catch (error) {
        if (!(error instanceof ParameterRefused) || adaptations === 3) throw error instanceof ParameterRefused ? error.cause : error;
        if (error.parameter === 'response_format') this.dialect.responseFormat = false;
        else if (error.parameter === 'max_tokens') this.dialect.maxTokensField = 'max_completion_tokens';
        else this.dialect.temperature = false;
      }
    }
  }

  private async send(req: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const withFormat = req.jsonSchema !== undefined && this.dialect.responseFormat;
    const body: Record<string, unknown> = {
      model: this.options.model,
      messages: req.messages,
      [this.dialect.maxTokensField]: clamp(req.maxTokens, CLIENT_LIMITS.maxTokens.min, CLIENT_LIMITS.maxTokens.max),
      stream: false,
    };
    if (this.dialect.temperature) body.temperature = this.options.temperature ?? 0;
    if (withFormat) body.response_format = { type: 'json_schema', json_schema: { name: req.jsonSchema!.name, schema: req.jsonSchema!.schema, strict: false } };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;

    let status: number;
    let text: string;
    try {
      const res = await request(this.url, { method: 'POST', headers, body: JSON.stringify(body), dispatcher: this.agent, signal });
      status = res.statusCode;
      text = await readCapped(res.body, status === 200 ? this.maxResponseBytes : CLIENT_LIMITS.errorBody, status === 200);
    } catch (error) {
      throw this.transportError(error, signal, req.timeoutMs);
    }
    if (status !== 200) throw refusedParameter(status, text, body) ?? statusError(status, text);

    let parsed: ChatResponse;
    try {
      parsed = JSON.parse(text) as ChatResponse;
    } catch {
      throw new LlmError(LlmErrorCode.UNAVAILABLE, 'The LLM endpoint answered with something other than JSON', 'transient');
    }
    const choice = parsed.choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string') throw new LlmError(LlmErrorCode.INVALID_OUTPUT, 'The LLM answer has no text content');
    return {
      text: content,
      usage: usageOf(parsed, req, content),
      finishReason: choice?.finish_reason,
      structured: req.jsonSchema ? (withFormat ? 'json_schema' : 'instructions') : undefined,
    };
  }

  private transportError(error: unknown, signal: AbortSignal, timeoutMs: number): unknown {
    if (error instanceof LlmError) return error;
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (reason instanceof DOMException && reason.name === 'TimeoutError') {
        return new LlmError(LlmErrorCode.TIMEOUT, `The LLM did not answer within ${timeoutMs} ms`, 'transient');
      }
      return reason; // the caller aborted: its reason, unchanged
    }
    const code = (error as { code?: string }).code ?? (error as Error).name;
    return new LlmError(LlmErrorCode.UNAVAILABLE, `The LLM endpoint cannot be reached (${code})`, 'transient');
  }

  /** Closes the connection pool (tests, shutdown). */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

interface Dialect {
  responseFormat: boolean;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  temperature: boolean;
}

/** The server refused a parameter it does not take; complete() asks again without it. */
class ParameterRefused extends Error {
  constructor(
    readonly parameter: 'response_format' | 'max_tokens' | 'temperature',
    override readonly cause: Error,
  ) {
    super(cause.message);
  }
}

function refusedParameter(status: number, text: string, body: Record<string, unknown>): ParameterRefused | undefined {
  if (status !== 400 && status !== 422) return undefined;
  const error = statusError(status, text);
  if ('response_format' in body && /response_format|json_schema/i.test(text)) return new ParameterRefused('response_format', error);
  // Only the refusals themselves ("Use 'max_completion_tokens' instead", "Unsupported value: 'temperature'"), not
  // limits on a value the server does take ("max_tokens is too large").
  if ('max_tokens' in body && /max_completion_tokens/.test(text)) return new ParameterRefused('max_tokens', error);
  if ('temperature' in body && /unsupported (value|parameter)\W+temperature/i.test(text)) return new ParameterRefused('temperature', error);
  return undefined;
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }, maxBytes: number, strict: boolean): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      if (strict) throw new LlmError(LlmErrorCode.INVALID_OUTPUT, `The LLM answer is larger than ${maxBytes} bytes`);
      parts.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
      break;
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

function statusError(status: number, text: string): LlmError {
  const detail = serverMessage(text);
  if (status === 401 || status === 403) return new LlmError(LlmErrorCode.UNAVAILABLE, `The LLM endpoint refused the API key (HTTP ${status})${detail}`);
  if (status === 404) return new LlmError(LlmErrorCode.UNAVAILABLE, `The LLM endpoint or model was not found (HTTP 404)${detail}`);
  if (status === 408 || status === 429 || status >= 500) return new LlmError(LlmErrorCode.UNAVAILABLE, `The LLM endpoint failed (HTTP ${status})${detail}`, 'transient');
  return new LlmError(LlmErrorCode.REJECTED, `The LLM endpoint refused the request (HTTP ${status})${detail}`);
}

/** The server's own error message, short, for ours. */
function serverMessage(text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // not JSON: the text itself
  }
  message = message.replace(/\s+/g, ' ').trim().slice(0, 300);
  return message ? `: ${message}` : '';
}

function usageOf(parsed: ChatResponse, req: CompletionRequest, content: string): TokenUsage {
  const prompt = parsed.usage?.prompt_tokens;
  const completion = parsed.usage?.completion_tokens;
  if (typeof prompt === 'number' && typeof completion === 'number' && prompt >= 0 && completion >= 0) return { prompt, completion };
  // No usage from the server: our own count, with the few tokens each chat message costs in OpenAI's format.
  const promptTokens = req.messages.reduce((sum, m) => sum + countTokens(m.content) + 4, 3);
  return { prompt: promptTokens, completion: countTokens(content), estimated: true };
}
