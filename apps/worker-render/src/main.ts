/** worker-render as its own process: the chromium engine consuming the `trawl-render` queue. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '#config';
import { EngineId } from '#contracts';
import { EngineWorkerModule } from '#worker';
import { createLogger, nestLogger } from '#platform';

const config = loadConfig();
const app = await NestFactory.createApplicationContext(EngineWorkerModule.forRoot(config, EngineId.chromium), { logger: nestLogger(config) });
app.enableShutdownHooks();
createLogger('info', 'trawl').info('worker-render consuming trawl-render'); // the readiness line, at every level
