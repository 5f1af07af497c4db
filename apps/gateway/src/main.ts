/** The gateway alone (workers run as their own processes). */
import 'reflect-metadata';
import { loadConfig } from '#config';
import { createGatewayApp, listen } from './bootstrap.js';

const config = loadConfig();
const app = await createGatewayApp(config);
app.enableShutdownHooks();
console.log(JSON.stringify({ level: 'info', msg: `gateway listening on ${await listen(app, config)}` }));
