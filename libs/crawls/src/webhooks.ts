/**
 * A crawl's webhook events (`started`, `page`, `completed`, `failed`), signed and handed to worker-http as
 * `webhook.deliver` jobs, which the queue retries with exponential backoff for a bounded number of attempts:
 * at-least-once, each event with an id the receiver de-duplicates on (a retried page job sends the same id).
 * Signature: `X-Trawl-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the crawl's secret, or
 * else the account's. The SSRF guard applies to the webhook URL in the worker like to any fetch.
 */
import { createHash, createHmac } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobName, QueueName, type WebhookDeliverPayload, type WebhookEvent, type WebhookOptions } from '#contracts';

export interface WebhookPolicy {
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
}

export function signWebhook(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export class WebhookSender {
  private readonly queue: Queue;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly policy: WebhookPolicy,
    private readonly accountSecret: (accountId: string) => Promise<string>,
  ) {
    this.queue = new Queue(QueueName.http, { connection, prefix });
    this.queue.on('error', () => undefined);
  }

  /**
   * Queues one event for delivery when the crawl subscribed to it. `eventKey` makes the event id stable across
   * retries of whatever sends it (the queue keeps one job per id).
   */
  async send(crawl: { id: string; accountId: string; webhook?: WebhookOptions }, type: WebhookEvent, eventKey: string, data: Record<string, unknown>): Promise<void> {
    const hook = crawl.webhook;
    if (!hook || !hook.events.includes(type)) return;
    const id = createHash('sha256').update(`${crawl.id}\n${type}\n${eventKey}`).digest('hex').slice(0, 32);
    const at = new Date();
    const body = JSON.stringify({ id, type, crawl_id: crawl.id, created_at: at.toISOString(), data });
    const secret = hook.secret ?? (await this.accountSecret(crawl.accountId));
    const payload: WebhookDeliverPayload = {
      url: hook.url,
      body,
      headers: {
        'content-type': 'application/json',
        'x-trawl-event': type,
        'x-trawl-event-id': id,
        'x-trawl-signature': signWebhook(secret, body, at),
      },
      timeoutMs: this.policy.timeoutMs,
    };
    await this.queue.add(JobName.webhookDeliver, payload, {
      jobId: `webhook.${id}`,
      attempts: this.policy.attempts,
      backoff: { type: 'exponential', delay: this.policy.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: 86_400 },
    });
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
