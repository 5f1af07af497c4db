/**
 * worker-headful as its own process: headed Chromium on an Xvfb display it starts and supervises itself (or DISPLAY
 * when set), behind the residential proxy pool, consuming the `trawl-headful` queue.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '#config';
import { EngineId } from '#contracts';
import { EngineWorkerModule } from '#worker';
import { createLogger, nestLogger } from '#platform';

const config = loadConfig();
const app = await NestFactory.createApplicationContext(EngineWorkerModule.forRoot(config, EngineId.headful), { logger: nestLogger(config) });
app.enableShutdownHooks();
createLogger('info', 'trawl').info('worker-headful consuming trawl-headful'); // the readiness line, at every level
