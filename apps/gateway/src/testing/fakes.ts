/** Fakes for the gateway's unit tier: a call lifecycle over in-memory ports and a dispatcher that records jobs. */
import { CallLifecycle, type Principal } from '#billing';
import { loadConfig, type TrawlConfig } from '#config';
import type { JobName, JobPayload, QueueName } from '#contracts';
import type { JobDispatcher, JobOutcome } from '#queue';
import type { Redis } from 'ioredis';
import { LlmFormatsService } from '../llm/llm-formats.service.js';
import { PageCache } from '../page-cache/page-cache.js';

export const principal: Principal = {
  accountId: 'acc-1',
  accountName: 'Test',
  planId: 'free',
  concurrencyLimit: 5,
  periodEnd: new Date(Date.now() + 86_400_000),
};

export function testConfig(env: Record<string, string> = {}): TrawlConfig {
  return loadConfig({ GOOGLE_TRANSPORT: 'http', BING_BASE_URL: 'http://127.0.0.1:9/', ...env });
}

/** A lifecycle whose ledger is a list of settled charges. */
export function fakeLifecycle() {
  const settled: { callId: string; reserved: number; charged: number }[] = [];
  const refunded: string[] = [];
  /** The request-log detail of each call, in the order the calls ended. */
  const details: unknown[] = [];
  const lifecycle = new CallLifecycle(
    {
      gate: { acquire: async () => ({ id: 'lease', release: async () => undefined }) },
      credits: {
        reserve: async (_accountId, _callId, amount) => amount,
        settle: async (callId, reserved, charged) => {
          settled.push({ callId, reserved, charged });
          return charged;
        },
        refund: async (callId) => void refunded.push(callId),
      },
      periods: { resetPeriodIfEnded: async () => undefined },
      principals: { forgetAccount: () => undefined },
      log: { write: (entry) => void details.push(entry.detail) },
      clock: { now: () => new Date() },
    },
    60_000,
  );
  return { lifecycle, settled, refunded, details };
}

type AnyOutcome = JobOutcome<JobName>;

/** Records every job and answers each payload with `answer`. */
export function fakeDispatcher(answer: (queue: QueueName, payload: any) => AnyOutcome) {
  const jobs: { queue: QueueName; name: JobName; payload: unknown; deadline: number }[] = [];
  const dispatcher = {
    runAll: async <N extends JobName>(queue: QueueName, name: N, payloads: JobPayload<N>[], deadline: number) => {
      for (const payload of payloads) jobs.push({ queue, name, payload, deadline });
      return payloads.map((p) => answer(queue, p)) as JobOutcome<N>[];
    },
  } as unknown as JobDispatcher;
  return { dispatcher, jobs };
}

/** The LLM formats of a gateway without an LLM configured (they are refused). */
export const noLlm = (config: TrawlConfig = testConfig()) => new LlmFormatsService(config, null);

/** The page cache of a gateway with it off (PAGE_CACHE_MAX_BYTES=0): every lookup a miss, nothing stored. */
export const noPageCache = () =>
  new PageCache({ defineCommand: () => undefined } as unknown as Redis, { maxBytes: 0, ttlMs: 1_000, prefix: 'test' }, { now: () => new Date() });
