/**
 * Trawl deployed as separate processes from the build (gateways and worker-http processes) on a private Redis with
 * AOF (a restart keeps its data) and a fresh database on the test Postgres, for the site-crawl fault and politeness
 * tests: start and kill processes by role, start crawls, read every page by cursor, look into the frontier.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '#test/support/database.js';
import { pollUntil } from '#test/support/poll.js';
import { startPrivateRedis, type PrivateRedis } from '#test/support/private-redis.js';
import { assertBuilt, deploymentEnv, READY, startTrawlApp, type TrawlApp } from '#test/support/trawl-app.js';

const ADMIN_TOKEN = 'crawl-deployment-admin-token-0123456789';

export interface CrawlPage {
  url: string;
  source_url: string;
  depth: number;
  status_code: number;
}

export interface CrawlAnswer {
  id: string;
  status: string;
  counts: { discovered: number; done: number; failed: number; skipped: number; pending: number };
  credits: number;
  pages: CrawlPage[];
  next: string | null;
  error?: string;
}

export class CrawlDeployment {
  readonly apps = new Map<string, TrawlApp>();
  /** Every process ever started (killed ones too), for their output after a failed run. */
  private readonly all: TrawlApp[] = [];
  private readonly gateways = new Map<string, string>();
  probe!: Redis;
  db!: pg.Pool;

  private constructor(
    readonly redis: PrivateRedis,
    private readonly database: TestDatabase,
    private readonly dataDir: string,
    readonly prefix: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Redis (AOF) and a database; no process yet. `env` is every app's extra configuration. */
  static async create(name: string, env: Record<string, string>): Promise<CrawlDeployment> {
    assertBuilt('gateway', 'worker-http');
    const [redis, database] = await Promise.all([startPrivateRedis({ aof: true }), createTestDatabase()]);
    const dataDir = mkdtempSync(path.join(tmpdir(), `trawl-${name}-`));
    const prefix = `{${name}}`;
    const d = new CrawlDeployment(redis, database, dataDir, prefix, {
      ...deploymentEnv({ databaseUrl: database.url, redisUrl: redis.url, prefix, dataDir, adminToken: ADMIN_TOKEN }),
      ...env,
    });
    d.db = new pg.Pool({ connectionString: database.url, max: 2 });
    d.db.on('error', () => undefined);
    d.probe = new Redis(redis.url, { maxRetriesPerRequest: null });
    d.probe.on('error', () => undefined);
    return d;
  }

  /**
   * Starts a process for `role` (`gateway-…`, `worker-http-…`, or `standalone-…`: `npm start`'s process, a gateway
   * with its workers) and waits until it is ready.
   */
  async start(role: string): Promise<void> {
    const name = role.startsWith('gateway') ? 'gateway' : role.startsWith('standalone') ? 'standalone' : 'worker-http';
    const ready = name === 'gateway' ? READY.gateway : name === 'standalone' ? READY.standalone : READY.worker;
    const { app, match } = await startTrawlApp(name, ready, this.env, (a) => this.all.push(a));
    this.apps.set(role, app);
    if (name !== 'worker-http') this.gateways.set(role, match[1]);
  }

  async kill(role: string): Promise<void> {
    await this.apps.get(role)!.stop('SIGKILL');
    this.apps.delete(role);
    this.gateways.delete(role);
  }

  /** A live gateway's base URL (the first one, or `role`'s). */
  url(role?: string): string {
    const url = role ? this.gateways.get(role) : this.gateways.values().next().value;
    if (!url) throw new Error(`no live gateway${role ? ` ${role}` : ''}`);
    return url;
  }

  async account(plan: string): Promise<{ apiKey: string; accountId: string }> {
    const res = await fetch(`${this.url()}/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `crawler-${Math.random().toString(36).slice(2, 8)}`, plan }),
    });
    if (res.status !== 201) throw new Error(`account: ${res.status} ${await res.text()}`);
    return (await res.json()) as { apiKey: string; accountId: string };
  }

  async startCrawl(apiKey: string, body: Record<string, unknown>, gateway?: string): Promise<string> {
    const res = await fetch(`${this.url(gateway)}/crawls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { id: string };
    if (res.status !== 201) throw new Error(`POST /crawls: ${res.status} ${JSON.stringify(answer)}`);
    return answer.id;
  }

  /** One status answer (`limit` pages from `cursor`), from any live gateway. */
  async read(apiKey: string, id: string, query = 'limit=1'): Promise<CrawlAnswer> {
    const res = await fetch(`${this.url()}/crawls/${id}?${query}`, { headers: { authorization: `Bearer ${apiKey}` } });
    if (res.status !== 200) throw new Error(`GET /crawls/${id}: ${res.status} ${await res.text()}`);
    return (await res.json()) as CrawlAnswer;
  }

  async finished(apiKey: string, id: string, timeoutMs: number): Promise<CrawlAnswer> {
    return pollUntil(
      async () => {
        const answer = await this.read(apiKey, id).catch(() => null);
        return answer && answer.status !== 'queued' && answer.status !== 'running' ? answer : null;
      },
      `crawl ${id} to finish`,
      timeoutMs,
      200,
    );
  }

  /** Every stored page, read by cursor (`limit` a page), in the order the answers give them. */
  async pages(apiKey: string, id: string, limit = 25): Promise<CrawlPage[]> {
    const pages: CrawlPage[] = [];
    let next: string | null = `${this.url()}/crawls/${id}?limit=${limit}`;
    while (next) {
      const res = await fetch(next, { headers: { authorization: `Bearer ${apiKey}` } });
      const answer = (await res.json()) as CrawlAnswer;
      pages.push(...answer.pages);
      next = answer.next;
    }
    return pages;
  }

  /** URLs of the crawl claimed by a process right now (their visits are under way). */
  async running(crawlId: string): Promise<number> {
    return this.probe.zcard(`${this.prefix}:crawl:{${crawlId}}:running`);
  }

  async close(): Promise<void> {
    // Each process's last output, for a failed run: tmpdir/trawl-<prefix>-<app>-<pid>.log.
    for (const app of this.all) writeFileSync(path.join(tmpdir(), `trawl-${this.prefix.slice(1, -1)}-${app.name}-${app.pid}.log`), app.output());
    await Promise.all(this.all.map((a) => a.stop('SIGKILL')));
    this.probe?.disconnect();
    await this.db?.end().catch(() => undefined);
    await this.redis.close();
    await this.database.drop().catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
