/**
 * The one-method provider behind every LLM format: a chat completion, optionally constrained to a JSON Schema.
 * OpenAiCompatibleClient is the real one; tests may pass any object with `complete`.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface JsonSchemaFormat {
  /** A short name for the schema (OpenAI asks for one: letters, digits, _ and -). */
  name: string;
  schema: Record<string, unknown>;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Asks for JSON of this shape through `response_format` where the server supports it. */
  jsonSchema?: JsonSchemaFormat;
  /** Upper bound on the answer's tokens. */
  maxTokens: number;
  /** The whole call, headers and body; the client enforces it. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
  /** True when the server reported no usage and these are our own o200k_base counts. */
  estimated?: boolean;
}

export interface Completion {
  text: string;
  usage: TokenUsage;
  /** The server's finish_reason (`length` means the answer was cut at maxTokens). */
  finishReason?: string;
  /** How the JSON shape was asked for: enforced through response_format, or only described in the prompt. */
  structured?: 'json_schema' | 'instructions';
}

export interface LlmClient {
  complete(request: CompletionRequest): Promise<Completion>;
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = { prompt: a.prompt + b.prompt, completion: a.completion + b.completion };
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}
