/**
 * The load-over-limits scenario (test/reliability/load-over-limits*.e2e.spec.ts run it on the system Postgres and on
 * the embedded default). Load over the limits: three accounts on three plans (free 5, developer 20, pro 50 concurrent requests), each
 * driven by about 2.5× its plan's limit of closed-loop clients for a bounded time. A refused client tries again after
 * REFUSED_PAUSE_MS, far sooner than the 429's Retry-After asks, so the gate stays under pressure.
 *
 * What a customer relies on, checked from outside (the pages' own server) and from the ledger:
 * - the gate is exact per account: the fixture server sees at most `limit` of an account's pages in flight, and
 *   under this pressure it sees exactly `limit` (a barrier holds each page until the account's limit is reached,
 *   so a loose gate would show more and a gate that stalls would show fewer);
 * - every refused request is a 429 in the contract's shape with the spec's message, and costs nothing;
 * - latency stays bounded (p99 of accepted and of refused requests);
 * - memory stays flat: after a full collection, the live heap of the process (gateway and workers run in it) after
 *   the third of three identical rounds is within a bound of the heap after the first, and so is its RSS;
 * - credits: each account's balance is its allowance minus the credits its 200s reported, the ledger sums to the
 *   balance, and no reservation is left open.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { html } from '#test/support/fixture-server.js';
import { key, startHarness, type Harness } from '#test/support/harness.js';
import { pollUntil } from '#test/support/poll.js';
import type { TestDatabase } from '#test/support/database.js';

const PLANS = [
  { plan: 'free', limit: 5, credits: 10_000 },
  { plan: 'developer', limit: 20, credits: 100_000 },
  { plan: 'pro', limit: 50, credits: 1_000_000 },
] as const;
const OVERLOAD = 2.5;
/** Every call's deadline (REQUEST_DEADLINE_MS). */
const DEADLINE_MS = 60_000;
const ROUND_MS = 4_000;
/**
 * Longest a page is held waiting for its account to reach the limit: long enough that a loaded 2-core CI machine gets
 * `limit` requests through the gateway before the barrier gives up (600 ms was not).
 */
const HOLD_MS = 3_000;
/** A refused client's pause before it tries again (Retry-After says 2 s). */
const REFUSED_PAUSE_MS = 100;
/** How long pages stay held once the limit is reached: the window in which a loose gate would let more through. */
const OVERSHOOT_WINDOW_MS = 50;
/** Per-origin keep-alive connections of the HTTP client (libs/fetch): each account gets enough origins for its limit. */
const CONNECTIONS_PER_ORIGIN = 32;

/** The pages of one account: a barrier that releases every held page shortly after `limit` are in flight (or after HOLD_MS). */
class AccountSite {
  inFlight = 0;
  maxInFlight = 0;
  served = 0;
  private held: ServerResponse[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  readonly urls: string[] = [];

  constructor(readonly limit: number) {}

  async start(): Promise<void> {
    const origins = Math.ceil(this.limit / CONNECTIONS_PER_ORIGIN) + 1;
    for (let i = 0; i < origins; i++) {
      const server = createServer((req, res) => this.page(req, res));
      server.on('connection', (socket) => {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.servers.push(server);
      this.urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/page`);
    }
  }

  private page(_req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.held.push(res);
    if (this.inFlight === this.limit) {
      // Limit reached: hold a moment longer, so that a loose gate would show pages past the limit.
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.release(), OVERSHOOT_WINDOW_MS);
    } else this.timer ??= setTimeout(() => this.release(), HOLD_MS);
  }

  private release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const res of this.held.splice(0)) {
      this.inFlight--;
      this.served++;
      res.writeHead(200, { 'content-type': 'text/html' }).end(html('<main><p>A page served under load, held at the barrier.</p></main>'));
    }
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

interface Tally {
  ok: number;
  credits: number;
  refused: number;
  other: string[];
  okMs: number[];
  refusedMs: number[];
}

/** Where the scenario's Postgres and Redis come from; `start` returns the harness's database and env overrides. */
export interface Backing {
  name: string;
  start(): Promise<{ database?: TestDatabase; env: Record<string, string>; stop?: () => Promise<void> }>;
}

/** Registers the scenario's hooks and tests in the calling spec file: `rounds` identical rounds on `where`. */
export function describeLoadOverLimits(where: Backing, rounds = 3): void {
  let stopBacking: (() => Promise<void>) | undefined;
  let trawl: Harness;
  const sites = new Map<string, AccountSite>();
  const accounts = new Map<string, { accountId: string; apiKey: string }>();
  const tallies = new Map<string, Tally>();
  const memory: { heap: number; rss: number }[] = [];

  /** A full garbage collection, so that the heap measured is the live one (not what the collector has yet to free). */
  function collectGarbage(): void {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  }

  /** Closed-loop clients of one account for `ms`: each sends its next /crawl as soon as the last answered. */
  async function drive(plan: string, limit: number, ms: number): Promise<void> {
    const site = sites.get(plan)!;
    const account = accounts.get(plan)!;
    const tally = tallies.get(plan)!;
    const end = Date.now() + ms;
    let n = 0;
    const client = async () => {
      while (Date.now() < end) {
        const url = site.urls[n++ % site.urls.length];
        const started = performance.now();
        const res = await fetch(`${trawl.baseUrl}/crawl?urls=${encodeURIComponent(url)}`, { headers: key(account.apiKey) });
        const body = (await res.json()) as { credits?: number; error?: { code: string; message: string } };
        const elapsed = performance.now() - started;
        if (res.status === 200) {
          tally.ok++;
          tally.credits += body.credits ?? 0;
          tally.okMs.push(elapsed);
        } else if (res.status === 429 && body.error?.code === 'CONCURRENCY_LIMIT') {
          expect(body).toEqual({
            error: { code: 'CONCURRENCY_LIMIT', message: `Concurrent request limit reached (${limit}). Please wait for other requests to finish.` },
          });
          tally.refused++;
          tally.refusedMs.push(elapsed);
          await new Promise((resolve) => setTimeout(resolve, REFUSED_PAUSE_MS));
        } else {
          tally.other.push(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.ceil(limit * OVERLOAD) }, client));
  }

  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0;

  beforeAll(async () => {
    const backing = await where.start();
    stopBacking = backing.stop;
    trawl = await startHarness(
      { WORKER_HTTP_CONCURRENCY: '200', CRAWL_TIMEOUT_MS: '20000', REQUEST_DEADLINE_MS: String(DEADLINE_MS), ...backing.env },
      backing.database ? { database: backing.database } : {},
    );
    for (const { plan, limit } of PLANS) {
      const site = new AccountSite(limit);
      await site.start();
      sites.set(plan, site);
      accounts.set(plan, await trawl.createAccount(plan));
      tallies.set(plan, { ok: 0, credits: 0, refused: 0, other: [], okMs: [], refusedMs: [] });
    }
    // Identical rounds; the live heap and RSS after each.
    for (let round = 0; round < rounds; round++) {
      await Promise.all(PLANS.map(({ plan, limit }) => drive(plan, limit, ROUND_MS)));
      collectGarbage();
      const { heapUsed, rss } = process.memoryUsage();
      memory.push({ heap: heapUsed, rss });
    }
    const summary = PLANS.map(({ plan }) => {
      const t = tallies.get(plan)!;
      return `${plan}: ${t.ok} ok, ${t.refused} refused, max in flight ${sites.get(plan)!.maxInFlight}, p99 ${p99(t.okMs).toFixed(0)}/${p99(t.refusedMs).toFixed(0)} ms`;
    });
    console.log(`load over the limits: ${summary.join('; ')}; heap ${memory.map((m) => mib(m.heap)).join(' → ')} MiB, RSS ${memory.map((m) => mib(m.rss)).join(' → ')} MiB`);
    // A round ends when its last call does, which may take up to the deadline on a starved CI machine (the p99 bound
    // below is what the test asserts): the hook allows that for every round rather than guessing a machine speed.
  }, rounds * (ROUND_MS + DEADLINE_MS) + 60_000);

  afterAll(async () => {
    await trawl?.close();
    for (const site of sites.values()) await site.close();
    await stopBacking?.();
  });

  describe.each(PLANS.map((p) => [p.plan, p.limit, p.credits] as const))(`load over the limits on ${where.name}: %s plan (limit %i)`, (plan, limit, allowance) => {
    it('keeps the gate exact: never more than the limit in flight, and the limit reached', () => {
      const tally = tallies.get(plan)!;
      expect(tally.other).toEqual([]);
      expect(tally.ok).toBeGreaterThan(limit);
      expect(tally.refused).toBeGreaterThan(0);
      expect(sites.get(plan)!.maxInFlight).toBe(limit);
    });

    it('answers within bounds, accepted and refused', () => {
      const tally = tallies.get(plan)!;
      // Accepted pages wait at most HOLD_MS at the barrier and refusals do no work, but this process also runs the
      // gateway, the workers and 190 clients beside another test file on a 2-core CI machine: the bound is that no
      // call comes near its deadline (REQUEST_DEADLINE_MS), not a latency target (bench/ measures those).
      expect(p99(tally.okMs)).toBeLessThan(DEADLINE_MS / 2);
      expect(p99(tally.refusedMs)).toBeLessThan(DEADLINE_MS / 2);
    });

    it('charges exactly the credits reported, nothing for a refusal, and leaves no reservation open', async () => {
      const { accountId } = accounts.get(plan)!;
      const tally = tallies.get(plan)!;
      expect(tally.credits).toBe(tally.ok);
      const balance = await trawl.ledger.balance(accountId);
      expect(balance).toBe(allowance - tally.credits);
      expect(await trawl.ledger.ledgerSum(accountId)).toBe(balance);
      const open = await pollUntil(async () => {
        const { rows } = await trawl.db.pool.query<{ open: number }>(`SELECT count(*)::int AS open FROM reservations WHERE account_id = $1 AND status = 'open'`, [accountId]);
        return rows[0].open === 0 ? 'none' : null;
      }, 'open reservations to settle');
      expect(open).toBe('none');
    });
  });

  it(`keeps memory flat on ${where.name}: the live heap and RSS after the last round are within bounds of the first`, () => {
    expect(memory).toHaveLength(rounds);
    const [first, last] = [memory[0], memory[rounds - 1]];
    // The live heap is the leak check: anything kept per request would grow it round after round.
    expect(last.heap - first.heap).toBeLessThan(24 * 2 ** 20);
    // RSS only loosely: this Jest worker ran other files before, and freed memory is not always given back to the OS
    // (CI runs measured 934 → 1,074 MiB with the live heap flat at 444 → 446 MiB, and 1,252 → 1,532 MiB with it at
    // 509 → 501 MiB on a clean clone): a leak the heap would not show still stands out past half a gigabyte.
    expect(last.rss - first.rss).toBeLessThan(512 * 2 ** 20);
  });
}
