/**
 * What `npm start` costs while nothing is asked of it, per `STANDALONE_WORKERS` value: the standalone process as
 * `npm start` runs it (`dist/apps/standalone/src/main.js`, its embedded Postgres and local redis-server in a fresh
 * DATA_DIR), left alone for a settling time, then measured over a quiet window — the Trawl process's resident memory
 * (VmRSS at the end, VmHWM) and CPU, its redis-server's and Postgres's CPU, the commands Redis served a second (the
 * workers' blocking polls and heartbeats), and whether any browser or Xvfb process was started. The workers' lists alternate round by round, so the machine's drift falls on both sides.
 *
 *   npm run build && npm run bench:idle -- [--workers=http,render:http,render,headful] [--rounds=3] [--settle=30] [--window=60]
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { measureCpu, readProcs } from '../support/process-cpu.js';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: 'http,render:http,render,headful' },
    rounds: { type: 'string', default: '3' },
    settle: { type: 'string', default: '30' },
    window: { type: 'string', default: '60' },
  },
});
const lists = values.workers.split(':');
const rounds = Number(values.rounds);
const settleMs = Number(values.settle) * 1000;
const windowMs = Number(values.window) * 1000;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  workers: string;
  rssMiB: number;
  hwmMiB: number;
  trawlCpuPct: number;
  redisCpuPct: number;
  postgresCpuPct: number;
  redisCommandsPerS: number;
  browsers: number;
}

const kib = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

async function idle(workers: string): Promise<Sample> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trawl-idle-'));
  chmodSync(dataDir, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', STANDALONE_WORKERS: workers, LOG_FORMAT: 'json' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/apps/standalone/src/main.js')], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000);
        if (output.includes('Trawl is listening on')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
      void exited.then(() => reject(new Error(`the standalone process exited before it listened: ${output.slice(-2000)}`)));
    });
    const services = JSON.parse(readFileSync(path.join(dataDir, 'services.json'), 'utf8')) as { pid: number; redisPid: number; postgresPid: number; redisUrl: string };
    const redis = new Redis(services.redisUrl);
    const commands = async () => Number(/^total_commands_processed:(\d+)/m.exec(await redis.info('stats'))?.[1] ?? NaN);
    await sleep(settleMs);
    const commandsBefore = await commands();
    const started = performance.now();
    const { cpu } = await measureCpu(['trawl', 'redis', 'postgres'] as const, (p, under) => {
      if (p.pid === services.pid) return 'trawl';
      if (p.pid === services.redisPid) return 'redis';
      if (p.pid === services.postgresPid || under(services.postgresPid)) return 'postgres';
      return undefined;
    }, () => sleep(windowMs), 1000);
    const seconds = (performance.now() - started) / 1000;
    // Less the two INFO commands of the measurement itself.
    const redisCommandsPerS = Number((((await commands()) - commandsBefore - 1) / seconds).toFixed(2));
    redis.disconnect();
    const descendants = readProcs().filter((p) => p.ppid === services.pid && /^(Xvfb|chrom)/i.test(p.comm));
    const pct = (s: number) => Number(((100 * s) / seconds).toFixed(2));
    return {
      workers,
      rssMiB: Number((kib(services.pid, 'VmRSS') / 1024).toFixed(1)),
      hwmMiB: Number((kib(services.pid, 'VmHWM') / 1024).toFixed(1)),
      trawlCpuPct: pct(cpu.trawl),
      redisCpuPct: pct(cpu.redis),
      postgresCpuPct: pct(cpu.postgres),
      redisCommandsPerS,
      browsers: descendants.length,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const samples: Sample[] = [];
for (let round = 0; round < rounds; round++) {
  for (const workers of round % 2 === 0 ? lists : [...lists].reverse()) {
    const sample = await idle(workers);
    samples.push(sample);
    console.log(JSON.stringify({ round: round + 1, ...sample }));
  }
}
console.log('\nworkers | Trawl RSS MiB | Trawl VmHWM MiB | Trawl CPU % | redis-server CPU % | Postgres CPU % | Redis commands/s | browser processes');
for (const workers of lists) {
  const mine = samples.filter((s) => s.workers === workers);
  const range = (f: (s: Sample) => number) => {
    const xs = mine.map(f).sort((a, b) => a - b);
    return xs[0] === xs[xs.length - 1] ? String(xs[0]) : `${xs[0]}–${xs[xs.length - 1]}`;
  };
  console.log(`${workers} | ${range((s) => s.rssMiB)} | ${range((s) => s.hwmMiB)} | ${range((s) => s.trawlCpuPct)} | ${range((s) => s.redisCpuPct)} | ${range((s) => s.postgresCpuPct)} | ${range((s) => s.redisCommandsPerS)} | ${range((s) => s.browsers)}`);
}
