/** Gateway and every worker in one process: the zero-setup local default. Same modules, same queues. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TrawlConfig } from '#config';
import { createGatewayApp } from '#apps/gateway/src/bootstrap.js';
import { WorkerHttpModule } from '#apps/worker-http/src/worker-http.module.js';
import { WorkerRenderModule } from '#apps/worker-render/src/worker-render.module.js';

export async function createStandaloneApp(config: TrawlConfig): Promise<NestFastifyApplication> {
  const workers = [];
  if (config.STANDALONE_WORKERS.includes('http')) workers.push(WorkerHttpModule.forRoot(config, { withInfrastructure: false }));
  if (config.STANDALONE_WORKERS.includes('render')) workers.push(WorkerRenderModule.forRoot(config, { withInfrastructure: false }));
  return createGatewayApp(config, workers);
}
