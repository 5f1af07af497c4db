/** Claiming several URLs of a crawl in one round trip, on real Redis: the crawl's cap and each host's hold within it. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { urlHash } from '#frontier';
import { createRedis } from '#platform';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { FrontierStore } from './frontier-store.js';

const prefix = `trawl-claim-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'claim-spec');
const store = new FrontierStore(redis, prefix);

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

async function crawlWith(cap: number, urls: Array<{ host: string; n: number }>): Promise<string> {
  const id = randomUUID();
  await store.init(id, 1000, cap, 0);
  const candidates = urls.flatMap(({ host, n }) =>
    Array.from({ length: n }, (_, i) => ({ hash: urlHash(`${host}/${i}`), host, shape: '/p', entry: `${host}/${i}` })),
  );
  expect((await store.admit(id, 1000, 0, candidates)).outcomes.every((a) => a === 'admitted')).toBe(true);
  return id;
}

describe('FrontierStore.claim', () => {
  it('takes up to the number asked for, never past the crawl cap nor a host cap, then says why there is no more', async () => {
    const id = await crawlWith(5, [{ host: 'a.test', n: 4 }, { host: 'b.test', n: 4 }]);
    const first = await store.claim(id, 60_000, 2, 16);
    expect('urls' in first && first.urls.map((u) => u.host).sort()).toEqual(['a.test', 'a.test', 'b.test', 'b.test']);
    // Both hosts are at their cap of 2: nothing more now, however many are asked for.
    expect(await store.claim(id, 60_000, 2, 16)).toEqual({ wait: expect.any(Number) });
    // A host found at its cap is looked at again 50 ms later; with a cap of 3, the next call takes more.
    let next = await store.claim(id, 60_000, 3, 16);
    for (const deadline = Date.now() + 2_000; !('urls' in next) && Date.now() < deadline; next = await store.claim(id, 60_000, 3, 16)) {
      await new Promise((turn) => setTimeout(turn, 10));
    }
    // The crawl's cap (5) stops it after one more.
    expect('urls' in next && next.urls).toHaveLength(1);
    expect(await store.claim(id, 60_000, 3, 16)).toEqual({ wait: 50 });
  });

  it('claims one when asked for one, and answers idle once the queues are empty', async () => {
    const id = await crawlWith(10, [{ host: 'c.test', n: 2 }]);
    const one = await store.claim(id, 60_000, 5, 1);
    expect('urls' in one && one.urls).toHaveLength(1);
    const rest = await store.claim(id, 60_000, 5, 8);
    expect('urls' in rest && rest.urls).toHaveLength(1);
    expect(await store.claim(id, 60_000, 5, 8)).toEqual({ idle: true });
  });
});

describe('FrontierStore.finish', () => {
  it('brings a crawl that was at its cap back to the front when one of its URLs finishes, and only then', async () => {
    const id = await crawlWith(1, [{ host: 'a.test', n: 3 }]);
    const first = await store.claim(id, 60_000, 5, 1);
    expect(await store.claim(id, 60_000, 5, 1)).toEqual({ wait: expect.any(Number) });
    await store.snooze(id, 60_000);
    expect(await store.dueCrawls(1_000)).not.toContain(id);
    await store.finish(id, 'urls' in first ? first.urls[0]!.hash : '');
    expect(await store.dueCrawls(1_000)).toContain(id);

    // Below its cap the crawl's wait is its own (a host's gap, nothing queued): a URL finishing leaves it.
    const roomy = await crawlWith(5, [{ host: 'b.test', n: 3 }]);
    const one = await store.claim(roomy, 60_000, 5, 1);
    await store.snooze(roomy, 60_000);
    await store.finish(roomy, 'urls' in one ? one.urls[0]!.hash : '');
    expect(await store.dueCrawls(1_000)).not.toContain(roomy);
  });
});

describe('FrontierStore.admit', () => {
  it('makes a crawl put off for later due at once when it admits a URL, and leaves it be when it admits none', async () => {
    const id = await crawlWith(1, [{ host: 'a.test', n: 1 }]);
    const entry = (n: number) => ({ hash: urlHash(`new/${n}`), host: 'a.test', shape: '/q', entry: `a.test/new/${n}` });
    await store.snooze(id, 60_000);
    expect(await store.admit(id, 1000, 0, [entry(1)])).toEqual({ outcomes: ['admitted'], spilled: 0 });
    expect(await store.dueCrawls(1_000)).toContain(id);

    await store.snooze(id, 60_000);
    expect(await store.admit(id, 1000, 0, [entry(1)])).toEqual({ outcomes: ['seen'], spilled: 0 });
    expect(await store.dueCrawls(1_000)).not.toContain(id);
  });

  it('claims nothing once stopped; the first stop with a reason is how the crawl ends, a page-limit stop has none', async () => {
    const limit = await crawlWith(5, [{ host: 'a.test', n: 2 }]);
    await store.stop(limit);
    expect(await store.claim(limit, 60_000, 2, 16)).toEqual({ stopped: true });
    expect(await store.stopped(limit)).toBeNull();

    const cancelled = await crawlWith(5, [{ host: 'a.test', n: 2 }]);
    await store.stop(cancelled);
    expect(await store.stop(cancelled, { status: 'cancelled', error: null })).toEqual({ status: 'cancelled', error: null });
    // Credits running out after the cancel do not change how it ends, nor does clearing its frontier.
    expect(await store.stop(cancelled, { status: 'credits_exhausted', error: 'CREDITS_EXHAUSTED: out' })).toEqual({ status: 'cancelled', error: null });
    await store.clear(cancelled);
    expect(await store.stopped(cancelled)).toEqual({ status: 'cancelled', error: null });
  });
});
