/**
 * Floor benchmark of the HTTP fetch layer: a tight loop of UndiciHttpClient.fetch() at fixed concurrency against a
 * small page on a loopback node:http server (a child process, so server and client each get an event loop and the
 * client's CPU time can be measured alone). It reports throughput and client CPU per request — guard, headers, body
 * read, charset decode — next to bare undici on the same server, so regressions in our layer show as a widening gap.
 * CPU µs/request is the steadier figure on a shared machine; req/s depends on what else is running.
 *
 * Run: npm run build && node dist/bench/fetch/fetch-floor.js [--seconds=10] [--concurrency=32] [--bytes=2048]
 */
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { Agent } from 'undici';
import { UndiciHttpClient } from '#fetch';

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, Number(value)] as const;
  }),
);
const SECONDS = args.get('seconds') ?? 10;
const CONCURRENCY = args.get('concurrency') ?? 32;
const BYTES = args.get('bytes') ?? 2048;

const SERVER = `
const http = require('node:http');
const bytes = Number(process.argv[1]);
const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27));
const page = Buffer.from(('<!doctype html><html><head><title>floor</title></head><body><p>' + filler).slice(0, bytes - 18) + '</p></body></html>');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length });
  res.end(page);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();
`;

interface Run {
  requests: number;
  /** Client process CPU (user + system) per completed request, in microseconds. */
  cpuUs: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** Keeps `concurrency` calls of `once` in flight for `seconds`, recording latency. */
async function loop(once: () => Promise<void>, seconds: number, concurrency: number): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const deadline = started + seconds * 1000;
  const lane = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await once();
        latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const cpu = process.cpuUsage(cpuBefore);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  const cpuUs = (cpu.user + cpu.system) / Math.max(1, latencies.length);
  return { requests: latencies.length, cpuUs, errors, seconds: elapsed, p50: pct(0.5), p99: pct(0.99) };
}

const report = (name: string, run: Run): string =>
  `${name.padEnd(22)} ${(run.requests / run.seconds).toFixed(0).padStart(7)} req/s   ${run.cpuUs.toFixed(0).padStart(4)} µs CPU/req   p50 ${run.p50.toFixed(2)} ms   p99 ${run.p99.toFixed(2)} ms   errors ${run.errors}`;

async function main(): Promise<void> {
  const server = spawn(process.execPath, ['-e', SERVER, String(BYTES)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
    server.once('exit', (code) => reject(new Error(`fixture server exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/page`;

  const client = new UndiciHttpClient({ allowPrivateAddresses: true, connections: CONCURRENCY });
  const fetchOnce = async (): Promise<void> => {
    const result = await client.fetch({ url, timeoutMs: 10_000, maxBytes: 1_000_000 });
    if (result.status !== 200 || result.bytes !== BYTES) throw new Error(`unexpected ${result.status} ${result.bytes}`);
  };
  const raw = new Agent({ connections: CONCURRENCY });
  const rawOnce = async (): Promise<void> => {
    const response = await raw.request({ origin: `http://127.0.0.1:${port}`, path: '/page', method: 'GET' });
    await response.body.text();
  };

  console.log(`fetch floor: ${BYTES}-byte page, concurrency ${CONCURRENCY}, ${SECONDS} s per run, node ${process.version}`);
  await loop(fetchOnce, 2, CONCURRENCY); // warm-up: JIT, sockets
  await loop(rawOnce, 1, CONCURRENCY);
  const ours = await loop(fetchOnce, SECONDS, CONCURRENCY);
  const bare = await loop(rawOnce, SECONDS, CONCURRENCY);
  console.log(report('UndiciHttpClient.fetch', ours));
  console.log(report('bare undici request', bare));
  console.log(
    JSON.stringify({
      bench: 'fetch-floor',
      concurrency: CONCURRENCY,
      bytes: BYTES,
      fetchRps: Math.round(ours.requests / ours.seconds),
      bareUndiciRps: Math.round(bare.requests / bare.seconds),
      fetchCpuUsPerRequest: Math.round(ours.cpuUs),
      bareUndiciCpuUsPerRequest: Math.round(bare.cpuUs),
      fetchP50Ms: Number(ours.p50.toFixed(3)),
      fetchP99Ms: Number(ours.p99.toFixed(3)),
      errors: ours.errors,
    }),
  );
  await Promise.all([client.close(), raw.close()]);
  server.stdin.end(); // the server exits when its stdin closes
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
