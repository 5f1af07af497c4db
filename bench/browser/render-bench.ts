/**
 * Render pool benchmark: pages/s and latency percentiles for N local pages at concurrency 1 and 4, with and without
 * blocking images/media/fonts (interleaved batch by batch), against a loopback site whose pages look like real ones (a script that builds the
 * content, a stylesheet, a web font and a dozen real PNG images, optionally with per-asset latency).
 *
 *   npm run build && node dist/bench/browser/render-bench.js [--pages 24] [--asset-latency-ms 0] [--prewarm true|false]
 *     [--chromium /usr/bin/chromium]
 */
import { cpus, loadavg } from 'node:os';
import { deflateSync, crc32 } from 'node:zlib';
import { ChromiumPool } from '#browser';
import { FixtureSite } from '#browser/testing/fixture-site.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const PAGES = Number(arg('pages', '24'));
const ASSET_LATENCY_MS = Number(arg('asset-latency-ms', '0'));
const CHROMIUM = arg('chromium', '/usr/bin/chromium');
const PREWARM = arg('prewarm', 'true') !== 'false';
const IMAGES_PER_PAGE = 12;

/** A valid, poorly compressible RGB PNG (so decoding costs what a photo would). */
function noisyPng(width: number, height: number, seed: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let x = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = i % (width * 3 + 1) === 0 ? 0 : x >>> 24;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function buildSite(site: FixtureSite): void {
  const delayed = (body: Buffer | string, type: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    const send = (): void => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (ASSET_LATENCY_MS > 0) setTimeout(send, ASSET_LATENCY_MS);
    else send();
  };
  for (let i = 0; i < IMAGES_PER_PAGE; i++) site.route(`/img/${i}.png`, delayed(noisyPng(320, 240, i + 1), 'image/png'));
  site.route('/font.woff2', delayed(Buffer.alloc(60_000, 7), 'font/woff2'));
  site.route('/style.css', delayed('@font-face{font-family:Bench;src:url(/font.woff2)} body{font-family:Bench,sans-serif} img{width:160px}', 'text/css'));
  const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}`);
  site.route('/app.js', delayed(
    `const data = ${JSON.stringify(paragraphs)};
     document.getElementById('app').innerHTML = data.map(p => '<p>' + p + '</p>').join('');`,
    'text/javascript',
  ));
  const imgs = Array.from({ length: IMAGES_PER_PAGE }, (_, i) => `<img src="/img/${i}.png?page=PAGE" alt="">`).join('');
  for (let n = 0; n < PAGES; n++) {
    site.page(`/page/${n}`, `<!doctype html><html><head><title>Page ${n}</title><link rel="stylesheet" href="/style.css"></head>
      <body><h1>Page ${n}</h1>${imgs.replaceAll('PAGE', String(n))}<div id="app"></div><script src="/app.js"></script></body></html>`);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Row {
  concurrency: number;
  blockResources: boolean;
  pagesPerSec: number;
  p50: number;
  p95: number;
  assetRequests: number;
}

interface Tally {
  latencies: number[];
  wallMs: number;
  pages: number;
  assetRequests: number;
}

/**
 * One pool per concurrency level; blocking on and off alternate batch by batch (order flipped every round), so both
 * see the same background load — this machine is shared, and load drifts over a run.
 */
async function runLevel(site: FixtureSite, concurrency: number): Promise<Row[]> {
  const pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: concurrency, pagesPerBrowser: 1_000, allowPrivateAddresses: true, prewarm: PREWARM });
  const tallies = new Map<boolean, Tally>([
    [false, { latencies: [], wallMs: 0, pages: 0, assetRequests: 0 }],
    [true, { latencies: [], wallMs: 0, pages: 0, assetRequests: 0 }],
  ]);
  try {
    await pool.render({ url: site.url('/page/0'), timeoutMs: 30_000 }); // launch + warm up
    let page = 0;
    for (let round = 0; round * concurrency < PAGES; round++) {
      for (const blockResources of round % 2 === 0 ? [false, true] : [true, false]) {
        const tally = tallies.get(blockResources) as Tally;
        const before = site.requests.length;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            const n = page++ % PAGES;
            const t = performance.now();
            const result = await pool.render({ url: site.url(`/page/${n}`), timeoutMs: 30_000, blockResources });
            if (!result.html.includes('Paragraph 39')) throw new Error(`page ${n} did not render`);
            tally.latencies.push(performance.now() - t);
          }),
        );
        tally.wallMs += performance.now() - started;
        tally.pages += concurrency;
        tally.assetRequests += site.requests.slice(before).filter((r) => r.path.startsWith('/img/') || r.path === '/font.woff2').length;
      }
    }
  } finally {
    await pool.close();
  }
  return [false, true].map((blockResources) => {
    const t = tallies.get(blockResources) as Tally;
    const sorted = [...t.latencies].sort((a, b) => a - b);
    return {
      concurrency,
      blockResources,
      pagesPerSec: t.pages / (t.wallMs / 1000),
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      assetRequests: t.assetRequests,
    };
  });
}

async function main(): Promise<void> {
  const site = await new FixtureSite().start();
  buildSite(site);
  const rows: Row[] = [];
  try {
    for (const concurrency of [1, 4]) rows.push(...(await runLevel(site, concurrency)));
  } finally {
    await site.close();
  }
  console.log(`render-bench: ${PAGES} pages, ${IMAGES_PER_PAGE} images + 1 font each, asset latency ${ASSET_LATENCY_MS} ms, prewarm ${PREWARM}`);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${cpus().length} cores)`);
  console.log('concurrency  blocking  pages/s   p50 ms   p95 ms   image+font requests');
  for (const r of rows) {
    console.log(
      `${String(r.concurrency).padEnd(13)}${(r.blockResources ? 'on' : 'off').padEnd(10)}${r.pagesPerSec.toFixed(2).padEnd(10)}${r.p50.toFixed(0).padEnd(9)}${r.p95.toFixed(0).padEnd(9)}${r.assetRequests}`,
    );
  }
  for (const concurrency of [1, 4]) {
    const off = rows.find((r) => r.concurrency === concurrency && !r.blockResources) as Row;
    const on = rows.find((r) => r.concurrency === concurrency && r.blockResources) as Row;
    console.log(
      `gain from blocking at concurrency ${concurrency}: throughput x${(on.pagesPerSec / off.pagesPerSec).toFixed(2)}, ` +
        `p50 ${(((off.p50 - on.p50) / off.p50) * 100).toFixed(0)}% lower`,
    );
  }
}

await main();
