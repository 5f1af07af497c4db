/**
 * Deployment-wide pacing of an upstream that allows at most one request per interval (the public Nominatim: 1
 * request/s for the whole application). Every worker, in every process, takes its turn from one Redis key holding
 * the next free slot: a Lua script reads Redis's own clock, hands out `max(now, next)` and moves `next` one interval
 * on, atomically — so turns are spaced by the interval whatever the number of workers, with no polling and no clock
 * skew between machines. A caller whose turn would come after its deadline takes no turn at all. Turns are spaced a
 * little more than the interval (JITTER_MARGIN_MS) so that the reply latency of one caller against another cannot
 * bring two requests closer together than the interval.
 */
import type { Redis } from 'ioredis';

export interface UpstreamPacer {
  /**
   * Waits until this request may go out. False (without waiting or taking a turn) when the turn would come later
   * than `deadline` (epoch ms).
   */
  waitTurn(key: string, intervalMs: number, deadline: number): Promise<boolean>;
}

// KEYS[1] next-free-slot key; ARGV[1] interval ms; ARGV[2] longest acceptable wait ms. Returns the wait, or -1.
const TAKE_TURN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, nextFree)
local wait = slot - now
if wait > tonumber(ARGV[2]) then return -1 end
redis.call('SET', KEYS[1], slot + tonumber(ARGV[1]), 'PX', wait + tonumber(ARGV[1]) + 1000)
return wait
`;

const JITTER_MARGIN_MS = 25;

export class RedisUpstreamPacer implements UpstreamPacer {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async waitTurn(key: string, intervalMs: number, deadline: number): Promise<boolean> {
    if (intervalMs <= 0) return true;
    const maxWait = deadline - Date.now();
    if (maxWait < 0) return false;
    const wait = Number(await this.redis.eval(TAKE_TURN, 1, `${this.prefix}:pace:${key}`, intervalMs + JITTER_MARGIN_MS, maxWait));
    if (wait < 0) return false;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return true;
  }
}
