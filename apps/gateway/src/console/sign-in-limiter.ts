/**
 * Failed console sign-ins per client address, across replicas (Redis): past MAX_FAILURES within WINDOW_MS every
 * attempt from that address is refused with 429 until the window ends, a right key or token included.
 */
import type { Redis } from 'ioredis';
import { ErrorCode, TrawlError } from '#contracts';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 5 * 60_000;

export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Throws 429 RATE_LIMITED when the address has used up its failures for the window. */
  async check(address: string): Promise<void> {
    const key = this.key(address);
    const [failures, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    if (Number(failures ?? 0) >= MAX_FAILURES) {
      throw new TrawlError(ErrorCode.RATE_LIMITED, `Too many failed sign-ins from this address; try again in ${Math.ceil(Math.max(ttl, 1000) / 1000)} s`);
    }
  }

  async failed(address: string): Promise<void> {
    const key = this.key(address);
    await this.redis.multi().incr(key).pexpire(key, WINDOW_MS, 'NX').exec();
  }

  private key(address: string): string {
    return `${this.prefix}:console:sign-in-failures:${address}`;
  }
}
