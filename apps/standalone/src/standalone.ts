/** Gateway and every worker in one process: the zero-setup local default. Same modules, same queues. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TrawlConfig } from '#config';
import { EngineId } from '#contracts';
import { EngineWorkerModule } from '#worker';
import { createGatewayApp } from '#apps/gateway/src/bootstrap.js';

const HOSTED = { http: EngineId.http, render: EngineId.chromium, headful: EngineId.headful } as const;

export async function createStandaloneApp(config: TrawlConfig): Promise<NestFastifyApplication> {
  const workers = config.STANDALONE_WORKERS.map((kind) => EngineWorkerModule.forRoot(config, HOSTED[kind], { withInfrastructure: false }));
  return createGatewayApp(config, workers);
}
