import { describe, expect, it } from '@jest/globals';
import { Semaphore } from './semaphore.js';

describe('Semaphore', () => {
  it('lets `size` holders in, then the waiters in order as slots are released', async () => {
    const slots = new Semaphore(2);
    const order: string[] = [];
    const a = (await slots.acquire())!;
    const b = (await slots.acquire())!;
    const c = slots.acquire().then((release) => (order.push('c'), release!));
    const d = slots.acquire().then((release) => (order.push('d'), release!));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a(); // a second release of one slot is ignored
    const releaseC = await c;
    expect(order).toEqual(['c']);
    b();
    (await d)();
    releaseC();
    expect(order).toEqual(['c', 'd']);
    expect(await slots.acquire()).toEqual(expect.any(Function));
  });

  it('gives up on a waiter whose signal aborts, without taking a slot', async () => {
    const slots = new Semaphore(1);
    const held = (await slots.acquire())!;
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
    held();
    const next = await slots.acquire();
    expect(next).toEqual(expect.any(Function));
    expect(await slots.acquire(AbortSignal.abort())).toBeNull();
  });
});
