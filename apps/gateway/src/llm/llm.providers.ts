/** The LLM formats' providers: the endpoint's client (none without LLM_BASE_URL) and the service over it. */
import type { Provider } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { OpenAiCompatibleClient, type LlmClient } from '#llm';
import { LLM_CLIENT, LlmFormatsService } from './llm-formats.service.js';

export function llmClientOf(config: TrawlConfig): LlmClient | null {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return null;
  return new OpenAiCompatibleClient({
    baseUrl: config.LLM_BASE_URL,
    model: config.LLM_MODEL,
    ...(config.LLM_API_KEY ? { apiKey: config.LLM_API_KEY } : {}),
    connections: config.LLM_CONCURRENCY,
  });
}

export const LLM_PROVIDERS: Provider[] = [{ provide: LLM_CLIENT, useFactory: llmClientOf, inject: [TRAWL_CONFIG] }, LlmFormatsService];
