/**
 * Accounts, plans and API keys. Key lookups (every request) are one indexed join; admin operations use Prisma.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Database } from './database.js';
import { usageRows } from './usage-rows.js';
import type { PrismaClient } from './generated/prisma/client.js';

export type AccountStatus = 'active' | 'suspended';

export interface PlanRow {
  id: string;
  name: string;
  monthlyCredits: number;
  concurrencyLimit: number;
  priceUsdCents: number;
}

/** What the gateway needs to know about the caller, resolved from an API key hash. */
export interface KeyPrincipal {
  keyId: string;
  keyRevoked: boolean;
  accountId: string;
  accountName: string;
  status: AccountStatus;
  planId: string;
  concurrencyLimit: number;
  periodEnd: Date;
  subscriptionExpiresAt: Date | null;
}

export interface AccountView {
  id: string;
  name: string;
  status: AccountStatus;
  plan: PlanRow;
  balance: number;
  periodStart: Date;
  periodEnd: Date;
  subscriptionExpiresAt: Date | null;
  createdAt: Date;
  keys: Array<{ id: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }>;
}

export interface UsageSummary {
  requests: number;
  credits: number;
  byEndpoint: Record<string, { requests: number; credits: number }>;
}

export class AccountsRepository {
  private readonly pool: pg.Pool;
  private readonly prisma: PrismaClient;

  constructor(db: Database) {
    this.pool = db.pool;
    this.prisma = db.prisma;
  }

  async findPrincipalByKeyHash(hash: string): Promise<KeyPrincipal | null> {
    const { rows } = await this.pool.query<{
      key_id: string;
      revoked_at: Date | null;
      account_id: string;
      name: string;
      status: AccountStatus;
      plan_id: string;
      concurrency_limit: number;
      period_end: Date;
      subscription_expires_at: Date | null;
    }>(
      `SELECT k.id AS key_id, k.revoked_at, a.id AS account_id, a.name, a.status, a.plan_id, p.concurrency_limit,
              a.period_end, a.subscription_expires_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.id = a.plan_id
       WHERE k.hash = $1`,
      [hash],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      keyId: r.key_id,
      keyRevoked: r.revoked_at !== null,
      accountId: r.account_id,
      accountName: r.name,
      status: r.status,
      planId: r.plan_id,
      concurrencyLimit: r.concurrency_limit,
      periodEnd: r.period_end,
      subscriptionExpiresAt: r.subscription_expires_at,
    };
  }

  async touchKey(keyId: string, at: Date): Promise<void> {
    await this.pool.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [keyId, at]);
  }

  async plans(): Promise<PlanRow[]> {
    return this.prisma.plan.findMany({ orderBy: { monthlyCredits: 'asc' } });
  }

  async plan(id: string): Promise<PlanRow | null> {
    return this.prisma.plan.findUnique({ where: { id } });
  }

  /** Creates the account with an empty balance; the caller grants the allowance through the ledger. */
  async createAccount(input: { name: string; planId: string; periodStart: Date; periodEnd: Date }): Promise<string> {
    const id = randomUUID();
    await this.prisma.account.create({
      data: { id, name: input.name, planId: input.planId, balance: 0, periodStart: input.periodStart, periodEnd: input.periodEnd },
    });
    return id;
  }

  async addKey(accountId: string, prefix: string, hash: string): Promise<string> {
    const id = randomUUID();
    await this.prisma.apiKey.create({ data: { id, accountId, prefix, hash } });
    return id;
  }

  /** Revokes every live key of the account; returns their hashes (for cache invalidation). */
  async revokeKeys(accountId: string, at: Date): Promise<string[]> {
    const { rows } = await this.pool.query<{ hash: string }>(
      'UPDATE api_keys SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL RETURNING hash',
      [accountId, at],
    );
    return rows.map((r) => r.hash);
  }

  async revokeKeyByPrefix(accountId: string, prefix: string, at: Date): Promise<string[]> {
    const { rows } = await this.pool.query<{ hash: string }>(
      'UPDATE api_keys SET revoked_at = $3 WHERE account_id = $1 AND prefix = $2 AND revoked_at IS NULL RETURNING hash',
      [accountId, prefix, at],
    );
    return rows.map((r) => r.hash);
  }

  async keyHashes(accountId: string): Promise<string[]> {
    const keys = await this.prisma.apiKey.findMany({ where: { accountId }, select: { hash: true } });
    return keys.map((k) => k.hash);
  }

  async setStatus(accountId: string, status: AccountStatus): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE accounts SET status = $2, updated_at = now() WHERE id = $1', [accountId, status]);
    return rowCount === 1;
  }

  async setPlan(accountId: string, planId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE accounts SET plan_id = $2, updated_at = now() WHERE id = $1', [accountId, planId]);
    return rowCount === 1;
  }

  async setSubscriptionExpiry(accountId: string, at: Date | null): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE accounts SET subscription_expires_at = $2, updated_at = now() WHERE id = $1',
      [accountId, at],
    );
    return rowCount === 1;
  }

  /** Moves the current period's end (used by admins and tests to end a period now). */
  async setPeriodEnd(accountId: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE accounts SET period_end = $2, updated_at = now() WHERE id = $1', [accountId, at]);
    return rowCount === 1;
  }

  async view(accountId: string): Promise<AccountView | null> {
    const account = await this.prisma.account.findUnique({
      where: { id: accountId },
      include: { plan: true, apiKeys: { orderBy: { createdAt: 'asc' } } },
    });
    if (!account) return null;
    return {
      id: account.id,
      name: account.name,
      status: account.status,
      plan: account.plan,
      balance: Number(account.balance),
      periodStart: account.periodStart,
      periodEnd: account.periodEnd,
      subscriptionExpiresAt: account.subscriptionExpiresAt,
      createdAt: account.createdAt,
      keys: account.apiKeys.map((k) => ({
        id: k.id,
        prefix: k.prefix,
        createdAt: k.createdAt,
        lastUsedAt: k.lastUsedAt,
        revokedAt: k.revokedAt,
      })),
    };
  }

  async list(): Promise<Array<{ id: string; name: string; status: AccountStatus; planId: string; balance: number }>> {
    const accounts = await this.prisma.account.findMany({
      select: { id: true, name: true, status: true, planId: true, balance: true },
      orderBy: { createdAt: 'asc' },
    });
    return accounts.map((a) => ({ ...a, balance: Number(a.balance) }));
  }

  async usageSince(accountId: string, since: Date): Promise<UsageSummary> {
    const { rows } = await this.pool.query<{ endpoint: string; requests: string; credits: string | null }>(
      `SELECT endpoint, sum(calls) AS requests, sum(credits) AS credits
       FROM ${usageRows({ account: '$1', since: '$2' })} AS u GROUP BY endpoint ORDER BY endpoint`,
      [accountId, since],
    );
    const byEndpoint: UsageSummary['byEndpoint'] = {};
    let requests = 0;
    let credits = 0;
    for (const r of rows) {
      byEndpoint[r.endpoint] = { requests: Number(r.requests), credits: Number(r.credits ?? 0) };
      requests += Number(r.requests);
      credits += Number(r.credits ?? 0);
    }
    return { requests, credits, byEndpoint };
  }
}
