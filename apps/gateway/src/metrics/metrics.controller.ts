/** `GET /metrics` on the main port: Prometheus text, behind the admin token (METRICS_PORT serves it without). */
import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { metrics } from '#metrics';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';

@Controller('metrics')
@UseGuards(AdminTokenGuard)
export class MetricsController {
  @Get()
  @Header('content-type', metrics.contentType)
  scrape(): Promise<string> {
    return metrics.text();
  }
}
