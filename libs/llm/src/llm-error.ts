/**
 * The typed failures of an LLM format. `kind` says whether a later retry may help (the same split as TrawlError's);
 * the lead maps codes to HTTP statuses: LLM_INVALID_SCHEMA is the caller's 400, the others are per-URL errors.
 */
import type { TokenUsage } from './llm-client.js';

export const LlmErrorCode = {
  /** The JSON Schema or prompt in the request is unusable (refused before anything is sent). */
  INVALID_SCHEMA: 'LLM_INVALID_SCHEMA',
  /** The model's answer is not valid JSON / not valid against the schema after one retry, or is too large. */
  INVALID_OUTPUT: 'LLM_INVALID_OUTPUT',
  /** No answer within the time allowed. */
  TIMEOUT: 'LLM_TIMEOUT',
  /** The endpoint cannot be reached, fails (5xx, 429), or refuses our key or model. */
  UNAVAILABLE: 'LLM_UNAVAILABLE',
  /** The endpoint refused the request itself (4xx: context too long, bad parameter). */
  REJECTED: 'LLM_REJECTED',
} as const;

export type LlmErrorCode = (typeof LlmErrorCode)[keyof typeof LlmErrorCode];

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly kind: 'permanent' | 'transient' = 'permanent',
    /** Tokens already spent when the failure came after answers (an invalid answer twice). */
    readonly usage?: TokenUsage,
  ) {
    super(message);
    this.name = 'LlmError';
  }

  get retryable(): boolean {
    return this.kind === 'transient';
  }
}
