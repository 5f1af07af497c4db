// JobGate: slot bound, FIFO queueing, deadline, and the free-memory floor.
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import { JobGate } from './job-gate.js';

const far = (): number => performance.now() + 60_000;

describe('JobGate', () => {
  it('admits up to the limit and queues the rest first come, first served', async () => {
    const gate = new JobGate(2);
    const a = await gate.acquire(far());
    await gate.acquire(far());
    const order: string[] = [];
    const c = gate.acquire(far()).then((release) => (order.push('c'), release));
    const d = gate.acquire(far()).then((release) => (order.push('d'), release));
    expect(gate.active).toBe(2);
    expect(gate.queued).toBe(2);
    a();
    a(); // releasing twice must not free two slots
    (await c)();
    await d;
    expect(order).toEqual(['c', 'd']);
    expect(gate.active).toBe(2);
  });

  it('rejects a waiter with a transient TIMEOUT at its deadline and forgets it', async () => {
    const gate = new JobGate(1);
    const release = await gate.acquire(far());
    const error = await gate.acquire(performance.now() + 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrawlError);
    expect((error as TrawlError).code).toBe(ErrorCode.TIMEOUT);
    expect((error as TrawlError).kind).toBe('transient');
    expect(gate.queued).toBe(0);
    release();
    expect(gate.active).toBe(0);
  });

  it('holds new jobs while free memory is under the floor, but always lets one job run', async () => {
    let freeMb = 100;
    const gate = new JobGate(4, { minFreeMb: 500, freeMb: () => freeMb });
    const first = await gate.acquire(far()); // nothing running: admitted despite low memory
    let admitted = false;
    const second = gate.acquire(far()).then((release) => ((admitted = true), release));
    await Promise.resolve();
    expect(admitted).toBe(false);
    freeMb = 2_000;
    first(); // a release re-evaluates the queue
    (await second)();
    expect(admitted).toBe(true);
  });
});
