/**
 * libs/llm — structured extraction and summaries through an LLM the operator configures: an OpenAI-compatible
 * chat-completions client (the one provider), the request's JSON Schema checked before anything is sent, the page
 * trimmed to the model's context with #chunks, the answer validated with one retry, typed errors and token usage.
 * No configuration is read here: the caller passes base URL, model, key, context size and time limit.
 */
export type { ChatMessage, Completion, CompletionRequest, JsonSchemaFormat, LlmClient, TokenUsage } from './llm-client.js';
export { addUsage } from './llm-client.js';
export { LlmError, LlmErrorCode } from './llm-error.js';
export { OpenAiCompatibleClient, CLIENT_LIMITS, type OpenAiClientOptions } from './openai-client.js';
export { compileSchema, SCHEMA_LIMITS, type CompiledSchema, type JsonSchema } from './json-schema.js';
export { parseJsonAnswer, type ParsedAnswer } from './json-answer.js';
export type { LlmPage } from './prompts.js';
export {
  PageLlm,
  CheckedExtraction,
  checkExtractRequest,
  checkSummaryPrompt,
  LLM_LIMITS,
  type ExtractRequest,
  type ExtractResult,
  type LlmResult,
  type PageLlmOptions,
  type SummaryResult,
} from './page-llm.js';
