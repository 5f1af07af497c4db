/** The gateway alone (workers run as their own processes). */
import 'reflect-metadata';
import { loadConfig } from '#config';
import { createLogger } from '#platform';
import { createGatewayApp, listen } from './bootstrap.js';

const config = loadConfig();
const app = await createGatewayApp(config);
app.enableShutdownHooks();
// Said at every level (even silent): the process's readiness line, in the pino shape.
createLogger('info', 'trawl').info(`gateway listening on ${await listen(app, config)}`);
