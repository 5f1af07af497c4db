/**
 * A load driver for the reliability suite: a few concurrent clients sending /crawl (plain and rendered) to every
 * live gateway replica, each response classified against the contract. A response is acceptable when it is a 200
 * with one result per URL, or an error in the contract's shape; a connection error only when the replica the
 * request went to was killed; 5xx only while an outage was in progress (checked afterwards against fault windows).
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface GatewaySlot {
  /** Base URL of the replica now serving this slot. */
  url: string;
  /** Bumped each time the slot's replica is replaced. */
  generation: number;
  /** No replica serves this slot right now (killed, not yet replaced): clients use the others. */
  down: boolean;
  /** Generations whose replica was killed: connection errors of requests sent to them are expected. */
  killed: Set<number>;
}

export interface LoadAccount {
  apiKey: string;
  accountId: string;
  plan: string;
}

export type OutcomeKind = 'ok' | 'error' | 'connection' | 'bad';

export interface Outcome {
  kind: OutcomeKind;
  status?: number;
  code?: string;
  accountId: string;
  render: boolean;
  slot: number;
  generation: number;
  startedAt: number;
  endedAt: number;
  credits?: number;
  /** Items of a 200 that carry an error (their code), e.g. TIMEOUT after a fault. */
  itemErrors?: string[];
  detail?: string;
}

export interface CrawlLoadOptions {
  clients: number;
  slots: GatewaySlot[];
  accounts: LoadAccount[];
  /** Plain page URL(s) and the page rendered; a unique query makes every URL its own job. */
  plainUrls: (n: number) => string[];
  renderUrl: (n: number) => string;
  /** Every n-th request asks for render_js=true. */
  renderEvery: number;
  /** A request not answered in this long counts as hung (a defect). */
  requestTimeoutMs: number;
}

export class CrawlLoad {
  readonly outcomes: Outcome[] = [];
  private stopping = false;
  private sent = 0;
  private running: Promise<void>[] = [];
  /** Requests on their way, per slot and generation (`slot:generation`). */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: CrawlLoadOptions) {}

  start(): void {
    this.running = Array.from({ length: this.options.clients }, (_, client) => this.client(client));
  }

  /** Stops sending and waits for every request in flight to end. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running);
  }

  /** Requests now on their way to the replica of `slot`'s current generation. */
  inFlightTo(slot: number): number {
    return this.inFlight.get(`${slot}:${this.options.slots[slot].generation}`) ?? 0;
  }

  get requestsSent(): number {
    return this.sent;
  }

  count(kind: OutcomeKind, since = 0): number {
    return this.outcomes.filter((o) => o.kind === kind && o.endedAt >= since).length;
  }

  /** Outcome counts by `kind[:status:code]`, for the summary line. */
  tally(): Record<string, number> {
    const tally: Record<string, number> = {};
    for (const o of this.outcomes) {
      const key = o.kind === 'ok' ? 'ok' : o.kind === 'error' ? `${o.status}:${o.code}` : o.kind;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    return tally;
  }

  private async client(client: number): Promise<void> {
    for (let n = 0; !this.stopping; n++) {
      const live = this.options.slots.map((slot, i) => ({ slot, i })).filter(({ slot }) => !slot.down);
      if (live.length === 0) throw new Error('no gateway replica left to send to');
      const { slot, i } = live[(client + n) % live.length];
      const account = this.options.accounts[(client + n) % this.options.accounts.length];
      const render = (client + n) % this.options.renderEvery === 0;
      const key = `${i}:${slot.generation}`;
      this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
      const outcome = await this.send(slot, i, account, render, this.sent++);
      this.inFlight.set(key, this.inFlight.get(key)! - 1);
      this.outcomes.push(outcome);
      // A client backs off a little after a refusal or a failure, as a real one would, instead of spinning.
      if (outcome.kind !== 'ok') await delay(100);
    }
  }

  private async send(slot: GatewaySlot, slotIndex: number, account: LoadAccount, render: boolean, n: number): Promise<Outcome> {
    const { generation, url: base } = slot;
    const urls = render ? [this.options.renderUrl(n)] : this.options.plainUrls(n);
    const query = `urls=${encodeURIComponent(urls.join(','))}${render ? '&render_js=true' : ''}`;
    const startedAt = Date.now();
    const base_ = { accountId: account.accountId, render, slot: slotIndex, generation, startedAt };
    let response: Response;
    try {
      response = await fetch(`${base}/crawl?${query}`, {
        headers: { 'x-api-key': account.apiKey },
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
    } catch (error) {
      const endedAt = Date.now();
      const detail = describe(error);
      if ((error as Error).name === 'TimeoutError') return { ...base_, kind: 'bad', endedAt, detail: `hung for ${this.options.requestTimeoutMs} ms` };
      // Expected only from a replica killed while (or before) this request was on its way.
      const killed = slot.killed.has(generation);
      return { ...base_, kind: killed ? 'connection' : 'bad', endedAt, detail: `connection error: ${detail}` };
    }
    let body: any;
    const text = await response.text().catch((error: unknown) => `<body lost: ${describe(error)}>`);
    const endedAt = Date.now();
    try {
      body = JSON.parse(text);
    } catch {
      return { ...base_, kind: 'bad', status: response.status, endedAt, detail: `not JSON: ${text.slice(0, 200)}` };
    }
    if (response.status === 200 && Array.isArray(body?.results) && body.results.length === urls.length && typeof body.credits === 'number') {
      const itemErrors = body.results.filter((r: any) => typeof r.error === 'string').map((r: any) => String(r.error).split(':')[0]);
      return { ...base_, kind: 'ok', status: 200, endedAt, credits: body.credits, itemErrors };
    }
    const error = body?.error;
    if (response.status >= 400 && typeof error?.code === 'string' && typeof error?.message === 'string' && error.message.length > 0) {
      return { ...base_, kind: 'error', status: response.status, code: error.code, endedAt, detail: error.message };
    }
    return { ...base_, kind: 'bad', status: response.status, endedAt, detail: `outside the contract: ${text.slice(0, 200)}` };
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return [(error as Error).message, cause?.code ?? cause?.message].filter(Boolean).join(' / ');
}
