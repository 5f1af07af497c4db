/**
 * What page actions add to a render: one loopback page (a button, a feed that loads more on scroll) rendered by one
 * ChromiumPool without actions and with two sets of actions, one job at a time; the wall time of each render, p50 and
 * p90. The difference is the actions' own work plus the quiet-wait after each interaction (page-actions.ts).
 *
 *   npm run build && npm run bench:actions -- [--runs=15] [--chromium=/usr/bin/chromium]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { ChromiumPool, renderExecutable } from '#browser';
import type { PageAction } from '#contracts';
import { quantile } from '../support/corpus-site.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, chromium: { type: 'string', default: '/usr/bin/chromium' } } });
const runs = Number(values.runs);

const PAGE = `<!doctype html><html><head><title>Bench</title></head><body>
<button id="b" onclick="document.getElementById('o').textContent = 'shown'">b</button><p id="o"></p><ul id="f"><li>1</li></ul>
<div style="height: 4000px"></div>
<script>addEventListener('scroll', () => fetch('/more').then((r) => r.text()).then((t) => document.getElementById('f').insertAdjacentHTML('beforeend', t)), { once: true });</script>
</body></html>`;

const SETS: Record<string, PageAction[]> = {
  none: [],
  'click + script': [{ type: 'click', selector: '#b', all: false }, { type: 'executeJavascript', script: 'document.getElementById("o").textContent' }],
  'click + scroll + wait + scrape + screenshot': [
    { type: 'click', selector: '#b', all: false },
    { type: 'scroll', direction: 'down' },
    { type: 'wait', selector: 'li.m' },
    { type: 'scrape' },
    { type: 'screenshot', fullPage: false },
  ],
};

const server = http.createServer((req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/more' ? '<li class="m">2</li>' : PAGE));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const pool = new ChromiumPool({ executablePath: renderExecutable(undefined, values.chromium), maxContexts: 1, pagesPerBrowser: 10_000, allowPrivateAddresses: true });
try {
  await pool.render({ url, timeoutMs: 15_000 }); // launch and warm up outside the measured runs
  for (const [name, actions] of Object.entries(SETS)) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await pool.render({ url, timeoutMs: 15_000, actions });
      times.push(performance.now() - started);
    }
    console.log(`${name}: p50 ${Math.round(quantile(times, 0.5))} ms, p90 ${Math.round(quantile(times, 0.9))} ms (${runs} renders)`);
  }
} finally {
  await pool.close();
  server.close();
}
