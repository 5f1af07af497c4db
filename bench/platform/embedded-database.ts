/**
 * Which embedded database `npm start` should run, measured: the ledger's hot path (a reserve and its settle, what
 * every metered call does) and the start time, on
 *   - PGlite used strictly as one connection: served over the wire by pglite-socket, every wire connection shares
 *     its one session, so one connection is the only way it keeps what the ledger relies on of Postgres (row locks,
 *     isolation between transactions, named prepared statements per connection);
 *   - the embedded Postgres server (libs/platform/src/local-postgres.ts) with the gateway's pools.
 * Each run ends with the ledger checked: it sums to the balance, which is the grant minus the settled charges.
 *
 *   npm run build && node dist/bench/platform/embedded-database.js [--seconds=5] [--clients=1,20]
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock, startLocalPostgres } from '#platform';
import { AccountsRepository, Database, LedgerRepository, migrate } from '#db';
import { closedLoop, type LoadResult } from '../support/load.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, clients: { type: 'string', default: '1,20' } } });
const seconds = Number(values.seconds);
const clientCounts = values.clients.split(',').map(Number);
const migrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../prisma/migrations');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Backend {
  name: string;
  /** Seconds to a database that answers: the first start creates it, the second opens it. */
  firstStartS: number;
  secondStartS: number;
  db: Database;
  stop(): Promise<void>;
}

const elapsed = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));

async function pgliteOneConnection(dir: string): Promise<Backend> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const open = async () => {
    const db = await PGlite.create(path.join(dir, 'pglite'));
    const port = await freePort();
    const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
    await server.start();
    return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, stop: async () => (await server.stop(), await db.close()) };
  };
  let t = performance.now();
  const first = await open();
  const firstStartS = elapsed(t);
  await first.stop();
  t = performance.now();
  const served = await open();
  const secondStartS = elapsed(t);
  await migrate(served.url, migrations);
  // One connection for everything: the reserves' relaxed pool is the same pool.
  const db = new Database(served.url, 1);
  await db.relaxedPool.end();
  Object.assign(db, { relaxedPool: db.pool });
  return { name: 'PGlite, one connection', firstStartS, secondStartS, db, stop: async () => (await db.pool.end(), await served.stop()) };
}

async function embeddedPostgres(dir: string): Promise<Backend> {
  const log = () => undefined;
  let t = performance.now();
  const first = await startLocalPostgres(dir, await freePort(), log);
  const firstStartS = elapsed(t);
  await first.stop();
  t = performance.now();
  const server = await startLocalPostgres(dir, await freePort(), log);
  const secondStartS = elapsed(t);
  await migrate(server.url, migrations);
  const db = new Database(server.url, 10);
  return { name: 'embedded Postgres server, pool of 10', firstStartS, secondStartS, db, stop: async () => (await db.close(), await server.stop()) };
}

const rows: Array<{ backend: string; first_start_s: number; second_start_s: number; ledger_exact: boolean } & LoadResult> = [];
for (const start of [pgliteOneConnection, embeddedPostgres]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trawl-embedded-bench-'));
  await chmod(dir, 0o755);
  const backend = await start(dir);
  const accounts = new AccountsRepository(backend.db);
  const ledger = new LedgerRepository(backend.db);
  const account = await new AccountAdminService(accounts, ledger, new AuthService(accounts, systemClock, 0, null, 'bench'), systemClock).create('bench', 'scale');
  let settled = 0;
  for (const clients of clientCounts) {
    const result = await closedLoop(clients, seconds, async () => {
      const id = randomUUID();
      const reserved = await ledger.reserve(account.accountId, id, 1, 60_000);
      if (!reserved.ok) return false;
      const outcome = await ledger.settle(id, 1);
      if (outcome) settled++;
      return outcome !== null;
    });
    const balance = await ledger.balance(account.accountId);
    const exact = balance === (await ledger.ledgerSum(account.accountId)) && balance === 2_500_000 - settled;
    rows.push({ backend: backend.name, first_start_s: backend.firstStartS, second_start_s: backend.secondStartS, ledger_exact: exact, ...result });
  }
  await backend.stop();
  await rm(dir, { recursive: true, force: true });
}
console.table(rows);
console.log(JSON.stringify({ bench: 'embedded-database', seconds, rows }));
