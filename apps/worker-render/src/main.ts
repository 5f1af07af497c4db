/** worker-render as its own process. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '#config';
import { nestLogger } from '#apps/gateway/src/bootstrap.js';
import { WorkerRenderModule } from './worker-render.module.js';

const config = loadConfig();
const app = await NestFactory.createApplicationContext(WorkerRenderModule.forRoot(config), { logger: nestLogger(config) });
app.enableShutdownHooks();
console.log(JSON.stringify({ level: 'info', msg: 'worker-render consuming trawl-render', pid: process.pid }));
