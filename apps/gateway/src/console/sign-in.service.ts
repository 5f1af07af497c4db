/**
 * Opens console sessions: with one of an account's API keys, a one-time link from the CLI, or ADMIN_TOKEN for the
 * operator. Failed attempts count against the client's address (SignInLimiter); a suspended account is refused
 * with its own 403, as the API refuses it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuthService, hashApiKey, hashLinkToken } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError, type SignInBody } from '#contracts';
import { AccountsRepository, ConsoleRepository } from '#db';
import { CLOCK } from '#platform';
import type { Clock } from '#platform/clock.js';
import { adminFingerprint } from './console-auth.js';
import { SessionStore, type StoredSession } from './session-store.js';
import { SignInLimiter } from './sign-in-limiter.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

@Injectable()
export class SignInService {
  constructor(
    private readonly sessions: SessionStore,
    private readonly limiter: SignInLimiter,
    private readonly auth: AuthService,
    private readonly repo: ConsoleRepository,
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  async signIn(body: SignInBody, address: string): Promise<{ token: string; session: StoredSession }> {
    await this.limiter.check(address);
    try {
      return await this.open(body);
    } catch (error) {
      if (error instanceof TrawlError && error.code === ErrorCode.UNAUTHORIZED) await this.limiter.failed(address);
      throw error;
    }
  }

  private async open(body: SignInBody): Promise<{ token: string; session: StoredSession }> {
    if ('apiKey' in body) {
      const principal = await this.auth.authenticate(body.apiKey);
      const keyId = await this.repo.keyIdByHash(hashApiKey(body.apiKey));
      if (!keyId) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Invalid API key');
      return this.sessions.open({ kind: 'account', accountId: principal.accountId, accountName: principal.accountName, keyId });
    }
    if ('link' in body) {
      const accountId = await this.repo.consumeLink(hashLinkToken(body.link), this.clock.now());
      if (!accountId) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'This sign-in link is unknown, already used or expired: ask for a new one (npm run trawl -- console:link)');
      const account = await this.accounts.view(accountId);
      if (!account) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'This sign-in link is for an account that no longer exists');
      if (account.status !== 'active') throw new TrawlError(ErrorCode.ACCOUNT_SUSPENDED, 'This account is suspended');
      return this.sessions.open({ kind: 'account', accountId, accountName: account.name });
    }
    const expected = this.config.ADMIN_TOKEN;
    if (!expected) throw new TrawlError(ErrorCode.NOT_FOUND, 'Operator sign-in is disabled: set ADMIN_TOKEN to enable it');
    if (!timingSafeEqual(digest(body.adminToken), digest(expected))) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'That is not the admin token');
    return this.sessions.open({ kind: 'admin', adminFingerprint: adminFingerprint(expected) });
  }
}
