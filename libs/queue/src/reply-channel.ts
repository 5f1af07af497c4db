/**
 * The way a job's outcome gets back to the gateway that waits for it: a Redis list per gateway (its inbox).
 *
 * A job's id names its gateway (`r.<gateway>.<n>`); the worker pushes the outcome onto that gateway's list once the
 * job has ended (a result, or the error of its last attempt), and the gateway pops its list in batches on one
 * blocking connection. Before this, every gateway read the queue's whole event stream (QueueEvents) and asked for
 * each job's state: two reads of every result and ~20 Redis commands per job more than this costs (see bench/).
 *
 * A list, not pub/sub: a reply pushed while the gateway reconnects waits for it. A list whose gateway died expires
 * (every push renews its TTL), and an outcome nobody waits for any more (its deadline passed) is dropped on arrival.
 * A job run twice (its worker stalled) may reply twice; the first reply wins.
 *
 * When the waiting gateway lives in the worker's own process (the standalone app), the outcome is handed to it
 * directly: the same exactly-once rules, without writing the result to Redis, reading it back and parsing it again
 * (the result of a crawled page is its formats — tens of KB). A process that dies takes both ends with it, so
 * nothing is lost that the Redis list would have kept.
 */
import type { Redis } from 'ioredis';
import { TrawlError } from '#contracts';
import { duplicateRedis } from '#platform';

/** How long an inbox outlives its last push: a dead gateway's replies are gone after this. */
export const INBOX_TTL_MS = 300_000;
/** Replies taken per round trip. */
const POP_BATCH = 256;
/** How long one blocking pop waits before the loop checks whether it should stop (seconds). */
const POP_BLOCK_S = 1;
const JOB_ID = /^r\.([0-9a-f]{16})\.\d+$/;

export type Reply = { ok: true; result: unknown } | { ok: false; error: string };
type Envelope = { id: string } & Reply;

export function inboxKey(prefix: string, gatewayId: string): string {
  return `${prefix}:inbox:${gatewayId}`;
}

/** The gateway a job should reply to, from its id; null for a job added by anything else (no reply expected). */
export function replyGateway(jobId: string | undefined): string | null {
  return jobId ? (JOB_ID.exec(jobId)?.[1] ?? null) : null;
}

/** Push and renew the inbox's TTL in one command (a MULTI would be four). */
const PUSH_REPLY = `redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
type ReplyRedis = Redis & { trawlReply(key: string, envelope: string, ttlMs: number): Promise<number> };
const withReplyCommand = new WeakSet<Redis>();

/** Inboxes of this process that take outcomes directly, by `localKey`. */
const localInboxes = new Map<string, ReplyInbox>();
const localKey = (prefix: string, gatewayId: string): string => `${prefix}\n${gatewayId}`;

/**
 * Worker side: delivers a job's outcome to its gateway's inbox (one round trip), or straight to the gateway when it
 * runs in this process.
 */
export async function sendReply(connection: Redis, prefix: string, jobId: string, reply: Reply): Promise<void> {
  const gatewayId = replyGateway(jobId);
  if (!gatewayId) return;
  const local = localInboxes.get(localKey(prefix, gatewayId));
  if (local) {
    local.receive(jobId, reply);
    return;
  }
  if (!withReplyCommand.has(connection)) {
    connection.defineCommand('trawlReply', { numberOfKeys: 1, lua: PUSH_REPLY });
    withReplyCommand.add(connection);
  }
  const envelope: Envelope = { id: jobId, ...reply };
  await (connection as ReplyRedis).trawlReply(inboxKey(prefix, gatewayId), JSON.stringify(envelope), INBOX_TTL_MS);
}

/** Gateway side: hands out job ids that reply here, and routes each reply that arrives to its waiter. */
export class ReplyInbox {
  readonly gatewayId: string;
  private readonly key: string;
  private readonly waiters = new Map<string, (reply: Reply) => void>();
  private readonly connection: Redis;
  private sequence = 0;
  private closed = false;
  private running = false;
  private readonly local: string | null;

  /** `local`: take outcomes from workers of this process directly (default); false sends them all through Redis. */
  constructor(connection: Redis, prefix: string, gatewayId: string, local = true) {
    if (!/^[0-9a-f]{16}$/.test(gatewayId)) throw new TrawlError('INTERNAL', 'A gateway id is 16 hex digits');
    this.gatewayId = gatewayId;
    this.key = inboxKey(prefix, gatewayId);
    this.connection = duplicateRedis(connection, `trawl-inbox-${gatewayId}`);
    this.local = local ? localKey(prefix, gatewayId) : null;
    if (this.local) localInboxes.set(this.local, this);
  }

  /** A fresh job id whose reply comes to this inbox. */
  nextJobId(): string {
    this.sequence += 1;
    return `r.${this.gatewayId}.${this.sequence}`;
  }

  /** Resolves with the job's reply; `forget` stops waiting (its reply, if one comes, is dropped). */
  expect(jobId: string): { reply: Promise<Reply>; forget: () => void } {
    if (!this.running) {
      this.running = true;
      void this.run();
    }
    const reply = new Promise<Reply>((resolve) => this.waiters.set(jobId, resolve));
    return { reply, forget: () => this.waiters.delete(jobId) };
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /** Stops popping. The blocking pop in flight is dropped with its connection, not waited for (Redis may be down). */
  close(): void {
    this.closed = true;
    if (this.local) localInboxes.delete(this.local);
    this.connection.disconnect();
  }

  /** An outcome from a worker of this process: to its waiter, if it still waits (else dropped, as from Redis). */
  receive(jobId: string, reply: Reply): void {
    const waiter = this.waiters.get(jobId);
    if (!waiter) return;
    this.waiters.delete(jobId);
    waiter(reply);
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      let popped: [string, string[]] | null;
      try {
        popped = await this.connection.blmpop(POP_BLOCK_S, 1, this.key, 'RIGHT', 'COUNT', POP_BATCH);
      } catch {
        // Redis gone or the connection closing: ioredis reconnects by itself; don't spin while it does.
        if (!this.closed) await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      for (const raw of popped?.[1] ?? []) this.deliver(raw);
    }
  }

  private deliver(raw: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      return;
    }
    this.receive(envelope.id, envelope.ok ? { ok: true, result: envelope.result } : { ok: false, error: envelope.error });
  }
}
