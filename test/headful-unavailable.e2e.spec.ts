/** `/headful-browser` when the service cannot work: no headful worker, or a worker whose display cannot start. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { WorkerRegistry } from '#queue';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

const harnesses: Harness[] = [];
const PROXIES = { RESIDENTIAL_PROXIES: 'us=http://127.0.0.1:9' };

afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
});

async function expectUnavailable(trawl: Harness, reason: RegExp): Promise<void> {
  const account = await trawl.createAccount();
  const res = await trawl.get(`/headful-browser?urls=${encodeURIComponent('http://127.0.0.1:9/page')}`, key(account.apiKey));
  expect(res.status).toBe(500);
  expect(res.body.error.code).toBe('HEADFUL_UNAVAILABLE');
  expect(res.body.error.message).toMatch(reason);
  expect(res.body.error.message).toMatch(/Nothing was charged\.$/);
  expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
}

describe('GET /headful-browser unavailable', () => {
  it('500 HEADFUL_UNAVAILABLE and no charge when no headful worker is alive', async () => {
    const trawl = await startHarness({ STANDALONE_WORKERS: 'http', ...PROXIES });
    harnesses.push(trawl);
    await expectUnavailable(trawl, /no headful worker is running/);
  });

  it('500 HEADFUL_UNAVAILABLE and no charge when the worker cannot start its display', async () => {
    const trawl = await startHarness({ STANDALONE_WORKERS: 'headful', XVFB_PATH: '/nonexistent/Xvfb', ...PROXIES });
    harnesses.push(trawl);
    const registry = trawl.app.get(WorkerRegistry, { strict: false });
    await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
    await expectUnavailable(trawl, /browser could not start/);
  });
});
