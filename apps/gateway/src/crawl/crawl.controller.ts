import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { Principal } from '#billing';
import type { CrawlResponse } from '#contracts';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { CrawlService } from './crawl.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class CrawlController {
  constructor(private readonly service: CrawlService) {}

  @Get('crawl')
  crawl(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<CrawlResponse> {
    return this.service.crawl(principal, this.service.parse(query));
  }
}
