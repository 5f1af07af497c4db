/** Gateway and every worker in one process: the zero-setup local default. Same modules, same queues. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TrawlConfig } from '#config';
import { EngineId } from '#contracts';
import type { DnsResolver } from '#fetch';
import { EngineWorkerModule } from '#worker';
import { createGatewayApp } from '#apps/gateway/src/bootstrap.js';

const HOSTED = { http: EngineId.http, render: EngineId.chromium, headful: EngineId.headful } as const;

/** `resolve`: the DNS resolver of the workers' SSRF checks (tests inject one; the system's by default). */
export async function createStandaloneApp(config: TrawlConfig, options: { resolve?: DnsResolver } = {}): Promise<NestFastifyApplication> {
  const workers = config.STANDALONE_WORKERS.map((kind) => EngineWorkerModule.forRoot(config, HOSTED[kind], { withInfrastructure: false, resolve: options.resolve }));
  return createGatewayApp(config, workers);
}
