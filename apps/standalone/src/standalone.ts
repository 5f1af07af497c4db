/** Gateway and every worker in one process: the zero-setup local default. Same modules, same queues. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TrawlConfig } from '../../../libs/config/src/index.js';
import { createGatewayApp } from '../../gateway/src/bootstrap.js';
import { WorkerHttpModule } from '../../worker-http/src/worker-http.module.js';

export async function createStandaloneApp(config: TrawlConfig): Promise<NestFastifyApplication> {
  return createGatewayApp(config, [WorkerHttpModule.forRoot(config, { withInfrastructure: false })]);
}
