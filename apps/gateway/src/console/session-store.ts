/**
 * Console sessions in Redis, so every gateway replica sees them and signing out ends them everywhere. The cookie
 * holds a random token; Redis holds only its sha256, with the session's CSRF token and what it was opened with.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export const SESSION_COOKIE = 'trawl_console';
export const SESSION_TTL_MS = 12 * 3_600_000;

export interface StoredSession {
  kind: 'account' | 'admin';
  csrf: string;
  expiresAt: number;
  accountId?: string;
  accountName?: string;
  /** The API key it was opened with (revoking that key ends the session); absent for a one-time link. */
  keyId?: string;
  /** An HMAC of the admin token it was opened with (a new ADMIN_TOKEN ends the session). */
  adminFingerprint?: string;
}

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async open(session: Omit<StoredSession, 'csrf' | 'expiresAt'>, now = Date.now()): Promise<{ token: string; session: StoredSession }> {
    const token = randomBytes(32).toString('base64url');
    const stored: StoredSession = { ...session, csrf: randomBytes(24).toString('base64url'), expiresAt: now + SESSION_TTL_MS };
    await this.redis.set(this.key(token), JSON.stringify(stored), 'PX', SESSION_TTL_MS);
    return { token, session: stored };
  }

  async read(token: string): Promise<StoredSession | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const raw = await this.redis.get(this.key(token));
    return raw ? (JSON.parse(raw) as StoredSession) : null;
  }

  async close(token: string): Promise<void> {
    await this.redis.del(this.key(token));
  }

  private key(token: string): string {
    return `${this.prefix}:console:session:${digest(token)}`;
  }
}

/** The value of one cookie from a Cookie header. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
