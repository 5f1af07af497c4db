/**
 * The queue dashboard (bull-board at /admin/queues) in a real headless Chromium: a browser is sent to the login form,
 * signs in once with the admin token, gets an HttpOnly cookie (not the token), and sees every Trawl queue with its
 * counts. Scripts use the Bearer header; without either the dashboard answers 401; it is read-only by default.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { chromium, type Browser } from 'playwright-core';
import { QueueName } from '#contracts';
import { startHarness, type Harness } from './support/harness.js';

const TOKEN = 'test-admin-token-0123456789';
let trawl: Harness;
let browser: Browser;
let headful: Queue;
let connection: Harness['redis'];

beforeAll(async () => {
  // Without a headful worker (npm start hosts one by default), nothing consumes trawl-headful: two jobs wait there.
  trawl = await startHarness({ STANDALONE_WORKERS: 'http,render' });
  connection = trawl.redis.duplicate();
  headful = new Queue(QueueName.headful, { connection, prefix: trawl.config.REDIS_PREFIX });
  await headful.addBulk([{ name: 'crawl.page', data: { url: 'https://site.example/a' } }, { name: 'crawl.page', data: { url: 'https://site.example/b' } }]);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await headful?.obliterate({ force: true }).catch(() => undefined);
  await headful?.close();
  connection?.disconnect();
  await trawl?.close();
});

describe('/admin/queues', () => {
  it('signs a browser in once with the token, then shows every queue with its counts', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${trawl.baseUrl}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/queues/login');

    await page.fill('input[name=token]', 'not-the-admin-token-at-all');
    await page.click('button[type=submit]');
    await page.getByRole('alert').waitFor();
    expect((await context.cookies()).length).toBe(0);

    await page.fill('input[name=token]', TOKEN);
    await page.click('button[type=submit]');
    await page.waitForURL(`${trawl.baseUrl}/admin/queues`);
    for (const name of Object.values(QueueName)) await page.getByText(name, { exact: true }).first().waitFor({ timeout: 15_000 });

    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'trawl_admin_session', httpOnly: true, sameSite: 'Strict', path: '/admin/queues' });
    expect(cookie.value).not.toContain(TOKEN);

    // The UI reads its data with the cookie: the headful queue's two waiting jobs.
    const api = await page.evaluate(async () => (await fetch('/admin/queues/api/queues')).json());
    const queues = (api as { queues: { name: string; counts: Record<string, number>; readOnlyMode: boolean }[] }).queues;
    expect(queues.map((q) => q.name).sort()).toEqual(Object.values(QueueName).sort());
    expect(queues.find((q) => q.name === QueueName.headful)?.counts.waiting).toBe(2);
    await context.close();
  });

  it('takes the Bearer header from scripts and refuses requests without a token', async () => {
    expect((await fetch(`${trawl.baseUrl}/admin/queues/api/queues`)).status).toBe(401);
    expect((await fetch(`${trawl.baseUrl}/admin/queues/api/queues`, { headers: { authorization: 'Bearer nope-nope-nope-nope' } })).status).toBe(401);
    expect((await fetch(`${trawl.baseUrl}/admin/queues/api/queues`, { headers: { cookie: 'trawl_admin_session=forged' } })).status).toBe(401);
    const response = await fetch(`${trawl.baseUrl}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { queues: { name: string; readOnlyMode: boolean }[] };
    expect(body.queues.every((q) => q.readOnlyMode)).toBe(true);
  });

  it('is read-only by default: actions are refused and the jobs stay', async () => {
    const response = await fetch(`${trawl.baseUrl}/admin/queues/api/queues/${QueueName.headful}/empty`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(405);
    expect(await headful.getWaitingCount()).toBe(2);
  });
});
