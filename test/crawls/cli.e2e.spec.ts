/**
 * `trawl crawl-site` (the built CLI as a child process) against a running Trawl over HTTP: pages as JSON lines on
 * stdout as they arrive, plain progress lines on stderr (not a terminal here), exit 0 when the crawl completed and 1
 * when it ended otherwise, 2 for bad usage; SIGINT cancels the crawl before exiting.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Queue } from 'bullmq';
import { QueueName } from '#contracts';
import { REPO_ROOT } from '../support/env.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

jest.setTimeout(60_000);

const CLI = `${REPO_ROOT}/dist/apps/cli/src/main.js`;

let trawl: Harness;
let site: FixtureServer;
/** Answers held by /slow until the end (a crawl that cannot finish while the test runs). */
const held: ServerResponse[] = [];

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it)`);
  const page = (title: string, links: string[]) => (_q: unknown, res: ServerResponse) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end(html(`<h1>${title}</h1><p>${title} has words enough to be content.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`, title));
  site = await startFixtureServer({
    '/': page('Home', ['/a', '/b', '/private/x']),
    '/a': page('Page A', ['/b']),
    '/b': page('Page B', []),
    '/robots.txt': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'),
    '/waiting/': page('Waiting', ['/slow']),
    '/slow': (_q, res) => void held.push(res),
  });
  trawl = await startHarness({});
});

afterAll(async () => {
  for (const res of held) res.end();
  await trawl?.close();
  await site?.close();
});

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

function cli(args: string[], env: Record<string, string> = {}): Run {
  const { TRAWL_API_KEY: _k, TRAWL_API_URL: _u, ...inherited } = process.env;
  const child = spawn(process.execPath, [CLI, 'crawl-site', ...args], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { child, stdout: '', stderr: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

const lines = (run: Run) => run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { url: string; markdown?: string; depth: number });

describe('trawl crawl-site', () => {
  it('writes each stored page as a JSON line and exits 0 when the crawl completed', async () => {
    const account = await trawl.createAccount();
    const run = cli([`${site.url}/`, '--limit', '10', '--depth', '1', '--exclude', '^/b$', '--interval', '100'], { TRAWL_API_KEY: account.apiKey, TRAWL_API_URL: trawl.baseUrl });
    expect(await run.exited).toBe(0);
    const pages = lines(run);
    // /b is excluded, /private/ is refused by robots.txt (never fetched, never charged).
    expect(pages.map((p) => p.url).sort()).toEqual([`${site.url}/`, `${site.url}/a`]);
    expect(pages.find((p) => p.url.endsWith('/a'))).toMatchObject({ depth: 1, markdown: expect.stringContaining('Page A') });
    expect(run.stderr).toMatch(/crawl-site: crawl [0-9a-f-]{36} started/);
    expect(run.stderr).toContain('crawl-site: completed — 2 pages stored of 3 discovered, 0 failed, 1 skipped, 2 credits');
    // Once: the last progress line is the summary.
    expect(run.stderr.split('crawl-site: completed —')).toHaveLength(2);
    expect(run.stderr).not.toContain('\r');
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 2);
  });

  it('exits 1 naming the reason when the crawl ends otherwise (out of credits), its pages written', async () => {
    const account = await trawl.createAccount();
    await trawl.db.pool.query('UPDATE accounts SET balance = 1 WHERE id = $1', [account.accountId]);
    const run = cli([`${site.url}/`, '--key', account.apiKey, '--api', trawl.baseUrl, '--interval', '100']);
    expect(await run.exited).toBe(1);
    expect(lines(run).map((p) => p.url)).toEqual([`${site.url}/`]);
    expect(run.stderr).toMatch(/crawl-site: credits_exhausted — 1 pages stored .*\(CREDITS_EXHAUSTED: /);
  });

  it('exits 1 with the API’s message when the crawl is refused, 2 for bad usage', async () => {
    const account = await trawl.createAccount();
    const refused = cli(['ftp://nope', '--key', account.apiKey, '--api', trawl.baseUrl]);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr).toMatch(/POST \/crawls: 400 INVALID_PARAMETER: url/);
    const unknownKey = cli([`${site.url}/`, '--key', 'trawl_unknown', '--api', trawl.baseUrl]);
    expect(await unknownKey.exited).toBe(1);
    expect(unknownKey.stderr).toMatch(/401 UNAUTHORIZED/);
    const noKey = cli([`${site.url}/`, '--api', trawl.baseUrl]);
    expect(await noKey.exited).toBe(2);
    expect(noKey.stderr).toContain('crawl-site needs an API key: --key KEY or TRAWL_API_KEY');
    const badLimit = cli([`${site.url}/`, '--key', account.apiKey, '--limit', 'many']);
    expect(await badLimit.exited).toBe(2);
    expect(badLimit.stderr).toContain('--limit must be an integer');
    const unreachable = cli([`${site.url}/`, '--key', account.apiKey, '--api', 'http://127.0.0.1:1']);
    expect(await unreachable.exited).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach Trawl at http://127.0.0.1:1');
  });

  it('Ctrl-C cancels the crawl, then exits 130', async () => {
    const account = await trawl.createAccount();
    const run = cli([`${site.url}/waiting/`, '--key', account.apiKey, '--api', trawl.baseUrl, '--interval', '100']);
    // The start page is written; /slow holds the crawl open.
    await pollUntil(() => lines(run).length === 1 && held.length > 0, 'the first page and the held one', 30_000);
    const id = /crawl ([0-9a-f-]{36}) started/.exec(run.stderr)![1];
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr).toContain(`crawl-site: interrupted; crawl ${id} cancelled`);
    expect((await trawl.get(`/crawls/${id}`, key(account.apiKey))).body.status).toBe('cancelled');
    // The page in flight ends once /slow answers; the app then closes with no crawl job running.
    for (const res of held.splice(0)) res.end();
    const crawlQueue = new Queue(QueueName.crawl, { connection: trawl.redis, prefix: trawl.config.REDIS_PREFIX });
    await pollUntil(async () => (await crawlQueue.getActiveCount()) === 0, 'no crawl job in flight', 30_000);
    await crawlQueue.close();
  });
});
