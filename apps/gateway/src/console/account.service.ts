/**
 * An account's own view, for the console and for scripts: overview (plan, balance, period, concurrency in use),
 * usage by day and endpoint, the request log page by page with each call's detail, and its API keys — created
 * with a name and shown once, revoked at once on every replica (AuthService pushes the revocation over Redis).
 */
import { Inject, Injectable } from '@nestjs/common';
import { AuthService, ConcurrencyGate, generateApiKey } from '#billing';
import { ErrorCode, TrawlError, type AccountOverview, type CrawlProgressView, type CreatedKeyView, type KeyView, type RequestDetailView, type RequestPage, type RequestView, type UsageView } from '#contracts';
import { AccountsRepository, ConsoleRepository, CrawlsRepository, type KeyRow, type RequestRow } from '#db';
import { CLOCK } from '#platform';
import type { Clock } from '#platform/clock.js';

/** Live keys one account may hold: enough for every environment, bounded all the same. */
export const MAX_LIVE_KEYS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const keyView = (k: KeyRow): KeyView => ({ id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt.toISOString(), lastUsedAt: iso(k.lastUsedAt), revokedAt: iso(k.revokedAt) });
const requestView = (r: RequestRow): RequestView => ({ ...r, createdAt: r.createdAt.toISOString() });

/** The first instant of the UTC day `days - 1` days before `now`: a window of `days` whole days. */
export function windowStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

@Injectable()
export class AccountService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly repo: ConsoleRepository,
    private readonly crawls: CrawlsRepository,
    private readonly gate: ConcurrencyGate,
    private readonly auth: AuthService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async overview(accountId: string): Promise<AccountOverview> {
    const account = await this.accounts.view(accountId);
    if (!account) throw new TrawlError(ErrorCode.NOT_FOUND, 'No such account');
    const [inUse, usage] = await Promise.all([this.gate.inFlight(accountId), this.accounts.usageSince(accountId, account.periodStart)]);
    return {
      id: account.id,
      name: account.name,
      status: account.status,
      plan: account.plan,
      balance: account.balance,
      period: { start: account.periodStart.toISOString(), end: account.periodEnd.toISOString() },
      subscriptionExpiresAt: iso(account.subscriptionExpiresAt),
      concurrency: { inUse, limit: account.plan.concurrencyLimit },
      thisPeriod: { calls: usage.requests, credits: usage.credits },
    };
  }

  async usage(accountId: string, days: number): Promise<UsageView> {
    const since = windowStart(this.clock.now(), days);
    return { since: since.toISOString(), days: await this.repo.usageByDay(accountId, since) };
  }

  async requests(accountId: string, query: { endpoint?: string; outcome?: 'ok' | 'error'; before?: string; limit: number }): Promise<RequestPage> {
    const before = query.before ? { createdAt: new Date(Number(query.before.slice(0, 13))), id: query.before.slice(14) } : undefined;
    const [rows, endpoints] = await Promise.all([
      this.repo.requests(accountId, { endpoint: query.endpoint, outcome: query.outcome, before, limit: query.limit + 1 }),
      this.repo.endpoints(accountId),
    ]);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const cursor = rows.length > query.limit && last ? `${String(last.createdAt.getTime()).padStart(13, '0')}_${last.id}` : null;
    return { requests: page.map(requestView), cursor, endpoints };
  }

  async request(accountId: string, id: string): Promise<RequestDetailView> {
    const row = UUID.test(id) ? await this.repo.request(accountId, id) : null;
    if (!row) throw new TrawlError(ErrorCode.NOT_FOUND, `No request ${id.slice(0, 64)} in this account's log`);
    return { ...requestView(row), detail: row.detail };
  }

  /** Crawls still queued or running, newest first, with their counts (their options hold a webhook secret: left out). */
  async activeCrawls(accountId: string): Promise<CrawlProgressView[]> {
    return (await this.crawls.active(accountId, 50)).map((c) => ({
      id: c.id,
      kind: c.kind,
      status: c.status,
      url: c.url,
      discovered: c.discovered,
      done: c.done,
      failed: c.failed,
      skipped: c.skipped,
      credits: Number(c.credits),
      createdAt: new Date(c.createdAt).toISOString(),
      startedAt: iso(c.startedAt ? new Date(c.startedAt) : null),
    }));
  }

  async keys(accountId: string): Promise<KeyView[]> {
    return (await this.repo.keys(accountId)).map(keyView);
  }

  async createKey(accountId: string, name: string | undefined): Promise<CreatedKeyView> {
    if ((await this.repo.liveKeyCount(accountId)) >= MAX_LIVE_KEYS) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `An account holds at most ${MAX_LIVE_KEYS} live keys: revoke one first`);
    }
    const key = generateApiKey();
    const row = await this.repo.addNamedKey(accountId, key.prefix, key.hash, name ? name : null);
    return { ...keyView(row), apiKey: key.key };
  }

  async revokeKey(accountId: string, keyId: string): Promise<KeyView> {
    const hash = UUID.test(keyId) ? await this.repo.revokeKey(accountId, keyId, this.clock.now()) : null;
    if (!hash) throw new TrawlError(ErrorCode.NOT_FOUND, `No live key ${keyId.slice(0, 64)} in this account`);
    await this.auth.invalidate([hash]);
    const revoked = (await this.repo.keys(accountId)).find((k) => k.id === keyId)!;
    return keyView(revoked);
  }
}
