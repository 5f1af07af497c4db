/**
 * Resolves an API key to its account. Results are cached briefly per key hash; revocations, suspensions and plan
 * changes are broadcast over Redis so every gateway replica drops its cached copy at once.
 */
import type { Redis } from 'ioredis';
import { ErrorCode, TrawlError } from '#contracts';
import type { AccountsRepository, KeyPrincipal } from '#db';
import { hashApiKey, looksLikeApiKey } from './api-key.js';
import type { Clock } from '#platform/clock.js';

export interface Principal {
  accountId: string;
  accountName: string;
  planId: string;
  concurrencyLimit: number;
  periodEnd: Date;
}

const TOUCH_EVERY_MS = 60_000;
const MAX_CACHE_ENTRIES = 50_000;

export class AuthService {
  private readonly cache = new Map<string, { principal: KeyPrincipal | null; until: number }>();
  private readonly touchedAt = new Map<string, number>();
  private readonly channel: string;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly clock: Clock,
    private readonly cacheMs: number,
    private readonly publisher: Redis | null,
    keyPrefix: string,
  ) {
    this.channel = `${keyPrefix}:auth-invalidate`;
  }

  /** Subscribes a dedicated connection to invalidations from other replicas. */
  async listen(subscriber: Redis): Promise<void> {
    subscriber.on('message', (_channel: string, message: string) => {
      if (message === '*') this.cache.clear();
      else this.cache.delete(message);
    });
    await subscriber.subscribe(this.channel);
  }

  async invalidate(hashes: string[] | '*'): Promise<void> {
    if (hashes === '*') {
      this.cache.clear();
      await this.publisher?.publish(this.channel, '*');
      return;
    }
    for (const hash of hashes) {
      this.cache.delete(hash);
      await this.publisher?.publish(this.channel, hash);
    }
  }

  /** 401 for a missing/unknown/revoked key, 403 for a suspended account or an ended subscription. */
  async authenticate(apiKey: string | undefined): Promise<Principal> {
    if (!apiKey || !looksLikeApiKey(apiKey)) {
      throw new TrawlError(ErrorCode.UNAUTHORIZED, apiKey ? 'Invalid API key' : 'Missing API key: send it as x-api-key or Authorization: Bearer');
    }
    const hash = hashApiKey(apiKey);
    const principal = await this.lookup(hash);
    if (!principal || principal.keyRevoked) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Invalid API key');
    if (principal.status !== 'active') {
      throw new TrawlError(ErrorCode.ACCOUNT_SUSPENDED, 'This account is suspended');
    }
    const now = this.clock.now();
    if (principal.subscriptionExpiresAt && principal.subscriptionExpiresAt <= now) {
      throw new TrawlError(ErrorCode.SUBSCRIPTION_EXPIRED, 'The subscription of this account has expired');
    }
    this.touch(principal.keyId, now);
    return {
      accountId: principal.accountId,
      accountName: principal.accountName,
      planId: principal.planId,
      concurrencyLimit: principal.concurrencyLimit,
      periodEnd: principal.periodEnd,
    };
  }

  /** Forget a cached principal after its period was reset (its periodEnd moved). */
  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.principal?.accountId === accountId) this.cache.delete(hash);
    }
  }

  private async lookup(hash: string): Promise<KeyPrincipal | null> {
    const nowMs = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > nowMs) return cached.principal;
    const principal = await this.accounts.findPrincipalByKeyHash(hash);
    if (this.cacheMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
      this.cache.set(hash, { principal, until: nowMs + this.cacheMs });
    }
    return principal;
  }

  private touch(keyId: string, now: Date): void {
    const last = this.touchedAt.get(keyId) ?? 0;
    if (now.getTime() - last < TOUCH_EVERY_MS) return;
    this.touchedAt.set(keyId, now.getTime());
    this.accounts.touchKey(keyId, now).catch(() => undefined);
  }
}
