/**
 * For `npm test` on a machine without Postgres/Redis: starts the same local services as `npm start` (the
 * embedded Postgres server, a redis-server child) for whichever of the two is unreachable, writes their URLs as shell assignments
 * to the file named in argv[4], and keeps them up until killed.
 */
import { writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { ensureLocalServices } from '#platform';

const [pgUrl, redisUrl, envFile] = process.argv.slice(2);
const reachable = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = new Socket();
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.connect(Number(port), hostname);
  });

const services = await ensureLocalServices(
  {
    dataDir: '.trawl-data/test-services',
    databaseUrl: (await reachable(pgUrl)) ? pgUrl : undefined,
    redisUrl: (await reachable(redisUrl)) ? redisUrl : undefined,
  },
  (message) => process.stderr.write(`${message}\n`),
);
await writeFile(envFile, `TEST_PG_ADMIN_URL='${services.databaseUrl}'\nTEST_REDIS_URL='${services.redisUrl}'\n`);
const stop = () => void services.stop().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
