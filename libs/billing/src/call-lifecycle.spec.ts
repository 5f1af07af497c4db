/** The call lifecycle with fake ports: order of effects, refunds, clamping, error mapping and the request-log row. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import type { RequestLogEntry } from '#db';
import type { Principal } from './auth.service.js';
import { wasMetered } from './call-context.js';
import { CallLifecycle, type LifecyclePorts, type MeteringPlan } from './call-lifecycle.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const principal: Principal = { accountId: 'acc-1', accountName: 'A', planId: 'free', concurrencyLimit: 5, periodEnd: new Date('2026-12-01T00:00:00Z') };
const plan: MeteringPlan = { endpoint: '/crawl', reserve: 10, insufficient: ErrorCode.CREDITS_EXHAUSTED };

function fakes(options: { lease?: boolean; reserveFails?: boolean; reserveError?: Error; balance?: number } = {}) {
  const events: string[] = [];
  const log: RequestLogEntry[] = [];
  const requestIds: Array<string | undefined> = [];
  const ports: LifecyclePorts = {
    gate: {
      acquire: async () => {
        events.push('acquire');
        return options.lease === false ? null : { id: 'lease', release: async () => void events.push('release') };
      },
    },
    credits: {
      reserve: async (_a, id, amount, code, lesser = []) => {
        events.push(`reserve ${id} ${[amount, ...lesser].join('|')}`);
        if (options.reserveFails) throw new TrawlError(code, 'not enough');
        if (options.reserveError) throw options.reserveError;
        // As CreditService: the amount, or the largest lesser one the balance covers.
        const balance = options.balance ?? Infinity;
        const granted = [amount, ...lesser].filter((a) => a <= balance).sort((a, b) => b - a)[0];
        if (granted === undefined) throw new TrawlError(code, 'not enough');
        return granted;
      },
      settle: async (id, reserved, charged) => {
        events.push(`settle ${id} ${reserved} ${charged}`);
        return charged;
      },
      refund: async (id) => void events.push(`refund ${id}`),
    },
    periods: { resetPeriodIfEnded: async () => void events.push('reset period') },
    principals: { forgetAccount: () => void events.push('forget') },
    log: {
      write: (entry, requestId) => {
        log.push(entry);
        requestIds.push(requestId);
      },
    },
    clock: { now: () => NOW },
  };
  let n = 0;
  const lifecycle = new CallLifecycle(ports, 60_000, () => `call-${++n}`);
  return { lifecycle, events, log, requestIds };
}

describe('CallLifecycle', () => {
  it('answers a lost database or Redis as SERVICE_UNAVAILABLE (an outage, not a bug) and logs it so', async () => {
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const { lifecycle, log } = fakes({ reserveError: lost });
    const failed = await lifecycle.run(principal, plan, async () => ({ body: 'never', charge: 0 })).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TrawlError);
    expect(failed).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE });
    expect(wasMetered(failed)).toBe(true);
    expect(log[0]).toMatchObject({ status: 500, errorCode: ErrorCode.SERVICE_UNAVAILABLE, credits: 0 });
  });


  it('leases, reserves, works, then releases the lease as it settles, and logs one row under the call id', async () => {
    const { lifecycle, events, log } = fakes();
    const out = await lifecycle.run(principal, plan, async (call) => {
      events.push(`work ${call.callId}`);
      expect(call.deadline).toBeGreaterThan(Date.now());
      return { body: 'ok', charge: 3 };
    });
    expect(out).toEqual({ body: 'ok', charge: 3 });
    // The slot is given back as soon as the work ends, while the charge is written.
    expect(events).toEqual(['acquire', 'reserve call-1 10', 'work call-1', 'release', 'settle call-1 10 3']);
    expect(log).toEqual([expect.objectContaining({ id: 'call-1', accountId: 'acc-1', endpoint: '/crawl', status: 200, credits: 3, errorCode: null })]);
  });

  it('clamps a charge to the reservation and never below zero', async () => {
    const { lifecycle, events } = fakes();
    await lifecycle.run(principal, plan, async () => ({ body: null, charge: 25 }));
    await lifecycle.run(principal, plan, async () => ({ body: null, charge: -4 }));
    expect(events.filter((e) => e.startsWith('settle'))).toEqual(['settle call-1 10 10', 'settle call-2 10 0']);
  });

  it('hands the work what was reserved when the balance covered only a lesser amount, and clamps the charge to it', async () => {
    const { lifecycle, events, log } = fakes({ balance: 20 });
    const seen: number[] = [];
    const ladder = { ...plan, reserve: 50, lesserReserves: [1, 10] };
    await lifecycle.run(principal, ladder, async (call) => {
      seen.push(call.meter.reserved);
      return { body: null, charge: 1 };
    });
    await lifecycle.run(principal, ladder, async () => ({ body: null, charge: 50 }));
    expect(seen).toEqual([10]);
    expect(events.filter((e) => e.startsWith('reserve') || e.startsWith('settle'))).toEqual([
      'reserve call-1 50|1|10', 'settle call-1 10 1', 'reserve call-2 50|1|10', 'settle call-2 10 10',
    ]);
    expect(log.map((e) => e.credits)).toEqual([1, 10]);
  });

  it('refunds in full when the work fails, releases the lease, maps the status and marks the error as logged', async () => {
    const { lifecycle, events, log } = fakes();
    const failure = new TrawlError(ErrorCode.UPSTREAM_BLOCKED, 'blocked');
    await expect(lifecycle.run(principal, plan, async () => Promise.reject(failure))).rejects.toBe(failure);
    expect(events).toEqual(['acquire', 'reserve call-1 10', 'release', 'refund call-1']);
    expect(log[0]).toEqual(expect.objectContaining({ status: 500, credits: 0, errorCode: 'UPSTREAM_BLOCKED' }));
    expect(wasMetered(failure)).toBe(true);
  });

  it('refuses over the concurrency limit with the exact message, before reserving anything', async () => {
    const { lifecycle, events, log } = fakes({ lease: false });
    await expect(lifecycle.run(principal, plan, async () => ({ body: null, charge: 0 }))).rejects.toThrow(
      'Concurrent request limit reached (5). Please wait for other requests to finish.',
    );
    expect(events).toEqual(['acquire']);
    expect(log[0]).toEqual(expect.objectContaining({ status: 429, errorCode: 'CONCURRENCY_LIMIT' }));
  });

  it('never runs the work when the balance cannot cover the reservation, and releases the lease', async () => {
    const { lifecycle, events, log } = fakes({ reserveFails: true });
    let ran = false;
    await expect(lifecycle.run(principal, { ...plan, insufficient: ErrorCode.INSUFFICIENT_CREDITS }, async () => {
      ran = true;
      return { body: null, charge: 0 };
    })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(ran).toBe(false);
    expect(events).toEqual(['acquire', 'reserve call-1 10', 'release']);
    expect(log[0].status).toBe(402);
  });

  it('starts a new billing period first when the last one ended', async () => {
    const { lifecycle, events } = fakes();
    await lifecycle.run({ ...principal, periodEnd: new Date('2026-11-01T00:00:00Z') }, plan, async () => ({ body: null, charge: 1 }));
    expect(events.slice(0, 3)).toEqual(['reset period', 'forget', 'acquire']);
  });

  it('gives each call its own id and the shorter of the two deadlines', async () => {
    const { lifecycle } = fakes();
    const seen: { id: string; budget: number }[] = [];
    for (const deadlineMs of [5_000, 600_000]) {
      await lifecycle.run(principal, { ...plan, deadlineMs }, async (call) => {
        seen.push({ id: call.callId, budget: call.deadline - Date.now() });
        return { body: null, charge: 0 };
      });
    }
    expect(seen.map((s) => s.id)).toEqual(['call-1', 'call-2']);
    expect(seen[0].budget).toBeLessThanOrEqual(5_000);
    expect(seen[1].budget).toBeLessThanOrEqual(60_000);
    expect(seen[1].budget).toBeGreaterThan(5_000);
  });

  it('logs a call under the endpoint it was started as (an MCP tool call), the service route otherwise', async () => {
    const { lifecycle, log } = fakes();
    const tool = await lifecycle.run({ ...principal, endpoint: 'mcp:crawl' }, plan, async (call) => ({ body: call.endpoint, charge: 1 }));
    await lifecycle.run(principal, plan, async () => ({ body: null, charge: 1 }));
    expect(tool.body).toBe('mcp:crawl');
    expect(log.map((e) => e.endpoint)).toEqual(['mcp:crawl', '/crawl']);
  });

  it("hands the log the HTTP request's id the caller carries, for the request line's reqId", async () => {
    const { lifecycle, log, requestIds } = fakes();
    await lifecycle.run({ ...principal, requestId: 'req-7' }, plan, async () => ({ body: null, charge: 1 }));
    await expect(lifecycle.run({ ...principal, requestId: 'req-8' }, plan, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await lifecycle.run(principal, plan, async () => ({ body: null, charge: 1 }));
    expect(requestIds).toEqual(['req-7', 'req-8', undefined]);
    expect(log.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
  });
});
