/** worker-http as its own process. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '#config';
import { nestLogger } from '#apps/gateway/src/bootstrap.js';
import { WorkerHttpModule } from './worker-http.module.js';

const config = loadConfig();
const app = await NestFactory.createApplicationContext(WorkerHttpModule.forRoot(config), { logger: nestLogger(config) });
app.enableShutdownHooks();
console.log(JSON.stringify({ level: 'info', msg: 'worker-http consuming trawl-http', pid: process.pid }));
