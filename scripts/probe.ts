/** Exit 0 when both the Postgres and the Redis URL given on the command line accept connections. */
import { Socket } from 'node:net';

const reachable = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(Number(port || 0), hostname);
  });

const results = await Promise.all(process.argv.slice(2).map(reachable));
process.exit(results.every(Boolean) ? 0 : 1);
