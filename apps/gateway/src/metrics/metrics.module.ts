/**
 * The gateway's metrics: `/metrics` (admin token), the queue gauges read at scrape time, and the METRICS_PORT
 * server when configured. Request counts and latencies are recorded by a Fastify hook (http-metrics.ts).
 */
import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { QueueName } from '#contracts';
import { metrics, startMetricsServer } from '#metrics';
import { REDIS } from '#platform';
import { registerQueueMetrics } from '#queue/queue-metrics.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { MetricsController } from './metrics.controller.js';

@Module({ controllers: [MetricsController], providers: [AdminTokenGuard] })
export class MetricsModule implements OnModuleInit, OnApplicationShutdown {
  private stopServer?: () => Promise<void>;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async onModuleInit(): Promise<void> {
    registerQueueMetrics(metrics, this.redis, this.config.REDIS_PREFIX, Object.values(QueueName));
    if (this.config.METRICS_PORT !== undefined) {
      this.stopServer = (await startMetricsServer(this.config.METRICS_PORT, this.config.HOST)).stop;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopServer?.();
  }
}
