/** worker-render as its own process: the chromium engine consuming the `trawl-render` queue. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '#config';
import { EngineId, EngineWorkerModule } from '#engines';
import { nestLogger } from '#platform';

const config = loadConfig();
const app = await NestFactory.createApplicationContext(EngineWorkerModule.forRoot(config, EngineId.chromium), { logger: nestLogger(config) });
app.enableShutdownHooks();
console.log(JSON.stringify({ level: 'info', msg: 'worker-render consuming trawl-render', pid: process.pid }));
