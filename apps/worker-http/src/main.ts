/** worker-http as its own process: the http engine consuming the `trawl-http` queue. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '#config';
import { EngineId } from '#contracts';
import { EngineWorkerModule } from '#worker';
import { createLogger, nestLogger } from '#platform';

const config = loadConfig();
const app = await NestFactory.createApplicationContext(EngineWorkerModule.forRoot(config, EngineId.http), { logger: nestLogger(config) });
app.enableShutdownHooks();
createLogger('info', 'trawl').info('worker-http consuming trawl-http'); // the readiness line, at every level
