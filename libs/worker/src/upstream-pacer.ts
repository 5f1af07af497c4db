/**
 * Deployment-wide pacing of an upstream that allows at most one request per interval (the public Nominatim: 1
 * request/s for the whole application; a crawled host's gap between requests, at the moment they are sent). Every
 * worker, in every process, takes its turn from one Redis key holding the next free slot: a Lua script reads Redis's
 * own clock, hands out `max(now, next)` and moves `next` one interval on, atomically — so turns are spaced by the
 * interval whatever the number of workers, with no polling and no clock skew between machines. A caller whose turn
 * would come after its deadline takes no turn at all. Turns are spaced a little more than the interval
 * (JITTER_MARGIN_MS) so that the reply latency of one caller against another cannot bring two requests closer
 * together than the interval.
 */
import type { Redis } from 'ioredis';

/** One turn to take: the key spaced and its interval. */
export interface Turn {
  key: string;
  intervalMs: number;
}

export interface UpstreamPacer {
  /**
   * Waits until this request may go out. False (without waiting or taking a turn) when the turn would come later
   * than `deadline` (epoch ms).
   */
  waitTurn(key: string, intervalMs: number, deadline: number): Promise<boolean>;
  /**
   * One turn on several keys at once (a host's spacing for every crawl and one crawl's own): the request goes out at
   * the first moment every key allows, and each key's next turn is counted from then. `marginMs` is added to each
   * interval (25 ms by default).
   */
  waitTurns(turns: readonly Turn[], deadline: number, marginMs?: number): Promise<boolean>;
}

// KEYS: next-free-slot keys; ARGV[1] longest acceptable wait ms, ARGV[1 + i] key i's interval ms. Returns the wait, or
// -1 (nothing taken).
const TAKE_TURN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot = now
for i = 1, #KEYS do
  slot = math.max(slot, tonumber(redis.call('GET', KEYS[i]) or '0'))
end
local wait = slot - now
if wait > tonumber(ARGV[1]) then return -1 end
for i = 1, #KEYS do
  local interval = tonumber(ARGV[i + 1])
  redis.call('SET', KEYS[i], slot + interval, 'PX', wait + interval + 1000)
end
return wait
`;

const JITTER_MARGIN_MS = 25;

type PacerRedis = Redis & { trawlTakeTurn(...args: Array<string | number>): Promise<number> };

export class RedisUpstreamPacer implements UpstreamPacer {
  private readonly redis: PacerRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('trawlTakeTurn', { lua: TAKE_TURN });
    this.redis = redis as PacerRedis;
  }

  waitTurn(key: string, intervalMs: number, deadline: number): Promise<boolean> {
    return this.waitTurns([{ key, intervalMs }], deadline);
  }

  async waitTurns(turns: readonly Turn[], deadline: number, marginMs = JITTER_MARGIN_MS): Promise<boolean> {
    const paced = turns.filter((turn) => turn.intervalMs > 0);
    if (paced.length === 0) return true;
    const maxWait = deadline - Date.now();
    if (maxWait < 0) return false;
    const wait = Number(
      await this.redis.trawlTakeTurn(
        paced.length,
        ...paced.map((turn) => `${this.prefix}:pace:${turn.key}`),
        maxWait,
        ...paced.map((turn) => turn.intervalMs + marginMs),
      ),
    );
    if (wait < 0) return false;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return true;
  }
}
