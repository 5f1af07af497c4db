// Crash recovery and browser recycling: a dying page or browser fails only its own job, and the pool keeps serving.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorCode } from '#contracts';
import { ChromiumPool, DEFAULT_CHROMIUM_ARGS } from './chromium-pool.js';
import { FixtureSite } from './testing/fixture-site.js';
import { pollUntil } from '#test/support/poll.js';
import { expectTrawlError as rejection } from '#test/support/trawl-error.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `condition` every 25 ms (pollUntil), instead of spinning the event loop while Chromium needs the CPU. */
const until = (condition: () => boolean, timeoutMs: number, what = 'the pool to get there') => pollUntil(condition, what, timeoutMs);

describe('ChromiumPool recovery', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;

  beforeAll(async () => {
    await site.start();
    site
      .page('/ok', '<!doctype html><html><body><p>still serving</p></body></html>')
      // A small V8 heap (see launchArgs) makes this page crash its renderer with an out-of-memory error in ~0.5 s.
      .page(
        '/oom',
        `<!doctype html><html><body><p>about to crash</p><script>
           const hoard = []; setTimeout(() => { for (;;) hoard.push(new Array(1e5).fill(Math.random())); }, 0);
         </script></body></html>`,
      )
      .page('/spin', '<!doctype html><html><body><p>busy</p><script>for (;;) {}</script></body></html>')
      .hang('/slow-resource.js')
      .page('/hangs-on-script', '<!doctype html><html><body><p>waiting</p><script src="/slow-resource.js"></script></body></html>');
    pool = new ChromiumPool({
      executablePath: CHROMIUM,
      maxContexts: 2,
      pagesPerBrowser: 100,
      allowPrivateAddresses: true,
      launchArgs: [...DEFAULT_CHROMIUM_ARGS, '--js-flags=--max-old-space-size=32'],
    });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  it('fails a job whose renderer crashes with RENDER_FAILED (transient) and serves the next job', async () => {
    const crashesBefore = pool.stats().crashes;
    const error = await rejection(pool.render({ url: site.url('/oom'), timeoutMs: 20_000 }));
    expect(error.code).toBe(ErrorCode.RENDER_FAILED);
    expect(error.kind).toBe('transient');
    expect(pool.stats().crashes).toBe(crashesBefore + 1);
    const next = await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
    expect(next.html).toContain('still serving');
  });

  it('gives up on a page whose script never yields, within the budget, and keeps serving', async () => {
    const started = performance.now();
    const error = await rejection(pool.render({ url: site.url('/spin'), timeoutMs: 2_000 }));
    expect(error.kind).toBe('transient');
    // Ends at its budget, not at some later timeout; the slack is what a loaded 2-core CI machine adds.
    expect(performance.now() - started).toBeLessThan(2_000 + 3_000);
    const next = await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
    expect(next.html).toContain('still serving');
  });

  it('fails the in-flight job (transient) when Chromium is killed, then relaunches for the next job', async () => {
    await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 }); // make sure a browser is up
    const [pid] = pool.browserPids();
    expect(processAlive(pid)).toBe(true);
    const launches = pool.stats().launches;

    const job = rejection(pool.render({ url: site.url('/hangs-on-script'), timeoutMs: 20_000 }));
    await site.waitForRequest('/slow-resource.js'); // the job is mid-render now
    process.kill(pid, 'SIGKILL');
    const error = await job;
    expect(error.code).toBe(ErrorCode.RENDER_FAILED);
    expect(error.kind).toBe('transient');

    const next = await pool.render({ url: site.url('/ok'), timeoutMs: 15_000 });
    expect(next.html).toContain('still serving');
    expect(pool.stats().launches).toBe(launches + 1);
    expect(pool.browserPids()).not.toContain(pid);
  });
});

describe('ChromiumPool recycling', () => {
  const site = new FixtureSite();

  beforeAll(async () => {
    await site.start();
    site.page('/ok', '<!doctype html><html><body><p>fresh</p></body></html>');
  });

  afterAll(async () => {
    await site.close();
  });

  it('replaces the browser after pagesPerBrowser jobs and closes the old one', async () => {
    const pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 2, allowPrivateAddresses: true });
    try {
      await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
      const [first] = pool.browserPids();
      await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
      await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
      expect(pool.stats().launches).toBe(2);
      await until(() => !processAlive(first), 10_000);
      expect(pool.stats().browsers).toBe(1);
      expect(pool.stats().crashes).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('lets a job in flight on a retired browser finish while a new browser serves new jobs', async () => {
    const pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 1, allowPrivateAddresses: true });
    let releaseSlow: () => void = () => undefined;
    site.route('/slow', (_req, res) => {
      releaseSlow = () => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow but fine</p>');
    });
    try {
      const slow = pool.render({ url: site.url('/slow'), timeoutMs: 20_000 });
      await site.waitForRequest('/slow');
      const fast = await pool.render({ url: site.url('/ok'), timeoutMs: 15_000 });
      expect(fast.html).toContain('fresh');
      expect(pool.stats().launches).toBe(2);
      releaseSlow();
      expect((await slow).html).toContain('slow but fine');
      await until(() => pool.stats().browsers === 0, 10_000); // both browsers retired after their one job
      expect(pool.stats().crashes).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('refuses jobs once closed', async () => {
    const pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 5, allowPrivateAddresses: true, prewarm: false });
    await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
    expect(pool.stats().warmContexts).toBe(0);
    const [pid] = pool.browserPids();
    await pool.close();
    expect(processAlive(pid)).toBe(false);
    const error = await rejection(pool.render({ url: site.url('/ok'), timeoutMs: 5_000 }));
    expect(error.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
  });
});
