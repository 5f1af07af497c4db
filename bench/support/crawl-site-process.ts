/**
 * The generated crawl site (crawl-site.ts) in a process of its own, so that a benchmark's CPU figures are the
 * crawler's alone. `startCrawlSiteProcess(options)` forks this file from the build; the child serves the site and
 * answers the parent's questions over IPC: its hosts, how many pages a correct crawler stores, and request
 * statistics from its log (per host: requests and the smallest gap between two arrivals, for politeness checks).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startCrawlSite, type CrawlSiteOptions, type ExpectOptions } from './crawl-site.js';

export interface SiteStats {
  requests: number;
  perHost: Array<{ host: string; requests: number; minGapMs: number | null }>;
}

interface Ready {
  type: 'ready';
  hosts: string[];
  expected: number;
}

export interface CrawlSiteProcess {
  hosts: string[];
  /** |expected(expectOptions)|: what a correct crawler stores from hosts[0]/ (allowExternal, no sitemap by default). */
  expectedPages: number;
  pid: number;
  /** Request statistics since the last reset (or start). */
  stats(reset?: boolean): Promise<SiteStats>;
  close(): Promise<void>;
}

export async function startCrawlSiteProcess(options: CrawlSiteOptions, expectOptions: ExpectOptions = { allowExternal: true, sitemap: 'skip' }): Promise<CrawlSiteProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [JSON.stringify({ options, expectOptions })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`crawl site process exited (${code}) before it was ready`)));
  });
  const ask = <T>(message: object): Promise<T> =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  return {
    hosts: ready.hosts,
    expectedPages: ready.expected,
    pid: child.pid!,
    stats: (reset = false) => ask<SiteStats>({ type: 'stats', reset }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

async function serve(): Promise<void> {
  const { options, expectOptions } = JSON.parse(process.argv[2] ?? '{}') as { options: CrawlSiteOptions; expectOptions: ExpectOptions };
  const site = await startCrawlSite(options);
  let from = 0;
  process.on('message', (message: { type: string; reset?: boolean }) => {
    if (message.type === 'close') {
      void site.close().then(() => process.exit(0));
      return;
    }
    const entries = site.log.slice(from);
    if (message.reset) from = site.log.length;
    const hosts = new Map<string, number[]>();
    for (const e of entries) {
      const at = hosts.get(e.host) ?? [];
      at.push(e.at);
      hosts.set(e.host, at);
    }
    const perHost = [...hosts].map(([host, at]) => {
      let minGapMs: number | null = null;
      for (let i = 1; i < at.length; i++) minGapMs = Math.min(minGapMs ?? Infinity, at[i] - at[i - 1]);
      return { host, requests: at.length, minGapMs: minGapMs === null ? null : Number(minGapMs.toFixed(2)) };
    });
    process.send!({ requests: entries.length, perHost } satisfies SiteStats);
  });
  process.on('disconnect', () => void site.close().then(() => process.exit(0)));
  process.send!({ type: 'ready', hosts: site.hosts, expected: site.expected(expectOptions).length } satisfies Ready);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serve();
