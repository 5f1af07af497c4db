/**
 * Who is calling the console's JSON API: an account by API key (`x-api-key` / Bearer, as scripts do) or by its
 * console session cookie, or the operator by session. A session is checked on every request against what opened
 * it — a revoked key, a suspended account or a changed ADMIN_TOKEN ends it at once — and a mutation made with the
 * cookie must carry the session's CSRF token and, when the browser sends one, a same-origin Origin.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthService } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError } from '#contracts';
import { ConsoleRepository } from '#db';
import { apiKeyFrom } from '../http/api-key.guard.js';
import { cookieOf, SESSION_COOKIE, SessionStore, type StoredSession } from './session-store.js';

export interface AccountCaller {
  accountId: string;
  accountName: string;
  /** How it authenticated: scripts with a key need no CSRF token. */
  via: 'key' | 'session';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CALLERS = new WeakMap<FastifyRequest, AccountCaller>();

export const accountCallerOf = (request: FastifyRequest): AccountCaller | undefined => CALLERS.get(request);

/** An HMAC of the admin token: stored in admin sessions instead of the token, compared with the current one. */
export const adminFingerprint = (token: string) => createHmac('sha256', token).update('trawl console admin session').digest('base64url');

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

@Injectable()
export class ConsoleAuth {
  constructor(
    private readonly sessions: SessionStore,
    private readonly auth: AuthService,
    private readonly repo: ConsoleRepository,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  /** The session of this request's cookie, if it is still valid (expired or invalidated ones are closed). */
  async session(request: FastifyRequest): Promise<{ token: string; session: StoredSession } | null> {
    const token = cookieOf(request.headers.cookie, SESSION_COOKIE);
    if (!token) return null;
    const session = await this.sessions.read(token);
    if (!session) return null;
    if (session.expiresAt <= Date.now() || !(await this.stillValid(session))) {
      await this.sessions.close(token);
      return null;
    }
    return { token, session };
  }

  /** The account calling /account/…: by key, else by session (CSRF-checked on mutations); 401 otherwise. */
  async account(request: FastifyRequest): Promise<AccountCaller> {
    const key = apiKeyFrom(request.headers);
    if (key) {
      const principal = await this.auth.authenticate(key);
      return this.remember(request, { accountId: principal.accountId, accountName: principal.accountName, via: 'key' });
    }
    const found = await this.session(request);
    if (!found || found.session.kind !== 'account' || !found.session.accountId) {
      throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Sign in to the console, or send an API key as x-api-key or Authorization: Bearer');
    }
    this.checkMutation(request, found.session);
    return this.remember(request, { accountId: found.session.accountId, accountName: found.session.accountName ?? '', via: 'session' });
  }

  /** Whether this request carries a valid operator session (CSRF-checked on mutations). */
  async admin(request: FastifyRequest): Promise<boolean> {
    const found = await this.session(request);
    if (!found || found.session.kind !== 'admin') return false;
    this.checkMutation(request, found.session);
    return true;
  }

  /** A state-changing request made with the cookie: same origin, and the session's CSRF token in x-csrf-token. */
  checkMutation(request: FastifyRequest, session: StoredSession): void {
    if (SAFE_METHODS.has(request.method)) return;
    checkOrigin(request);
    const sent = request.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !same(sent, session.csrf)) {
      throw new TrawlError(ErrorCode.FORBIDDEN, 'Missing or wrong x-csrf-token (GET /console/session gives it)');
    }
  }

  private async stillValid(session: StoredSession): Promise<boolean> {
    if (session.kind === 'admin') {
      const token = this.config.ADMIN_TOKEN;
      return token !== undefined && session.adminFingerprint !== undefined && same(session.adminFingerprint, adminFingerprint(token));
    }
    if (!session.accountId) return false;
    if (session.keyId) {
      const key = await this.repo.keyState(session.keyId);
      return key !== null && !key.revoked && key.status === 'active' && key.accountId === session.accountId;
    }
    return (await this.repo.accountStatus(session.accountId)) === 'active';
  }

  private remember(request: FastifyRequest, caller: AccountCaller): AccountCaller {
    CALLERS.set(request, caller);
    return caller;
  }
}

/** A browser's Origin (sent on every cross-origin request and on same-origin POSTs) must be this host. */
export function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" or garbage: not this origin
  }
  if (host === null || host !== request.headers.host) throw new TrawlError(ErrorCode.FORBIDDEN, 'Cross-origin request refused');
}
