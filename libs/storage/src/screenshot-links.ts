/**
 * Expiring links to stored screenshots: `/screenshots/<key>?expires=<epoch s>&signature=<hex HMAC-SHA256>`. The link
 * is its own authorisation (no API key), so it can be handed on; it stops working at `expires`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class ScreenshotLinks {
  private readonly key: Buffer;

  /** `secret` unset: a random key, valid only within this process (set SCREENSHOT_SIGNING_KEY across replicas). */
  constructor(
    secret: string | undefined,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = secret ? Buffer.from(secret) : randomBytes(32);
  }

  /** The signed path (prefix it with the public origin). */
  sign(storeKey: string): string {
    const expires = Math.floor((this.now() + this.ttlMs) / 1000);
    return `/screenshots/${storeKey}?expires=${expires}&signature=${this.mac(storeKey, expires)}`;
  }

  /** `ok`, or why the link is refused. */
  verify(storeKey: string, expires: unknown, signature: unknown): 'ok' | 'invalid' | 'expired' {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) {
      return 'invalid';
    }
    const expected = Buffer.from(this.mac(storeKey, Number(expires)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    return Number(expires) * 1000 <= this.now() ? 'expired' : 'ok';
  }

  private mac(storeKey: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${storeKey}\n${expires}`).digest('hex');
  }
}
