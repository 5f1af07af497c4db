/**
 * Account administration, shared by the CLI (`npm run trawl -- accounts:…`) and the admin HTTP API.
 */
import { ErrorCode, TrawlError } from '#contracts';
import { addMonths, type AccountView, type AccountsRepository, type LedgerRepository, type UsageSummary } from '#db';
import { generateApiKey } from './api-key.js';
import type { AuthService } from './auth.service.js';
import type { Clock } from '#platform/clock.js';
import { PLAN_IDS } from './plans.js';

export interface CreatedAccount {
  accountId: string;
  apiKey: string;
  keyPrefix: string;
  planId: string;
  balance: number;
}

export interface AccountReport {
  account: AccountView;
  usage: UsageSummary;
}

/** An account id; anything else (e.g. 36 dashes, which Postgres refuses as a uuid) names no account. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One grant's ceiling; balances themselves are 64-bit (several grants add up past 2^31 − 1). */
const MAX_GRANT = 1_000_000_000;

export class AccountAdminService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly auth: AuthService,
    private readonly clock: Clock,
  ) {}

  async create(name: string, planId: string): Promise<CreatedAccount> {
    const cleanName = name.trim();
    if (cleanName.length === 0 || cleanName.length > 200) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, 'name must be 1 to 200 characters');
    }
    const plan = await this.requirePlan(planId);
    const now = this.clock.now();
    const accountId = await this.accounts.createAccount({
      name: cleanName,
      planId: plan.id,
      periodStart: now,
      periodEnd: addMonths(now, 1),
    });
    const balance = await this.ledger.grant(accountId, plan.monthlyCredits, `${plan.name} plan allowance`);
    const key = generateApiKey();
    await this.accounts.addKey(accountId, key.prefix, key.hash);
    return { accountId, apiKey: key.key, keyPrefix: key.prefix, planId: plan.id, balance };
  }

  /** Issues a new key and revokes all earlier ones. */
  async regenerateKey(accountId: string): Promise<{ apiKey: string; keyPrefix: string }> {
    await this.requireAccount(accountId);
    const revoked = await this.accounts.revokeKeys(accountId, this.clock.now());
    const key = generateApiKey();
    await this.accounts.addKey(accountId, key.prefix, key.hash);
    await this.auth.invalidate(revoked);
    return { apiKey: key.key, keyPrefix: key.prefix };
  }

  /** Revokes one key by its shown prefix, or every key of the account when no prefix is given. */
  async revokeKeys(accountId: string, prefix?: string): Promise<number> {
    await this.requireAccount(accountId);
    const now = this.clock.now();
    const revoked = prefix
      ? await this.accounts.revokeKeyByPrefix(accountId, prefix, now)
      : await this.accounts.revokeKeys(accountId, now);
    await this.auth.invalidate(revoked);
    return revoked.length;
  }

  /** New concurrency limit at once; the new allowance from the next period (use grant to top up now). */
  async setPlan(accountId: string, planId: string): Promise<void> {
    const plan = await this.requirePlan(planId);
    await this.requireAccount(accountId);
    await this.accounts.setPlan(accountId, plan.id);
    await this.auth.invalidate(await this.accounts.keyHashes(accountId));
  }

  async setStatus(accountId: string, status: 'active' | 'suspended'): Promise<void> {
    await this.requireAccount(accountId);
    await this.accounts.setStatus(accountId, status);
    await this.auth.invalidate(await this.accounts.keyHashes(accountId));
  }

  async setSubscriptionExpiry(accountId: string, at: Date | null): Promise<void> {
    await this.requireAccount(accountId);
    await this.accounts.setSubscriptionExpiry(accountId, at);
    await this.auth.invalidate(await this.accounts.keyHashes(accountId));
  }

  async grant(accountId: string, credits: number, note = 'manual grant'): Promise<number> {
    if (!Number.isInteger(credits) || credits <= 0 || credits > MAX_GRANT) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `credits must be a positive integer of at most ${MAX_GRANT} per grant`);
    }
    await this.requireAccount(accountId);
    return this.ledger.grant(accountId, credits, note);
  }

  /** Ends the current period now and starts the next one (unused credits do not roll over). */
  async resetPeriod(accountId: string): Promise<AccountView> {
    await this.requireAccount(accountId);
    const now = this.clock.now();
    await this.accounts.setPeriodEnd(accountId, now);
    await this.ledger.resetPeriodIfEnded(accountId, now);
    this.auth.forgetAccount(accountId);
    return this.requireAccount(accountId);
  }

  async report(accountId: string): Promise<AccountReport> {
    const account = await this.requireAccount(accountId);
    return { account, usage: await this.accounts.usageSince(accountId, account.periodStart) };
  }

  list() {
    return this.accounts.list();
  }

  plans() {
    return this.accounts.plans();
  }

  private async requirePlan(planId: string) {
    const plan = await this.accounts.plan(planId.toLowerCase());
    if (!plan) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `plan must be one of ${PLAN_IDS.join(', ')}`);
    }
    return plan;
  }

  private async requireAccount(accountId: string): Promise<AccountView> {
    const account = UUID.test(accountId) ? await this.accounts.view(accountId) : null;
    if (!account) throw new TrawlError(ErrorCode.NOT_FOUND, `No account ${accountId}`);
    return account;
  }
}
