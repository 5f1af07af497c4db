import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import type { Principal } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal, RequestMeter } from '../http/principal.decorator.js';
import type { RequestOutcome } from '../http/request-context.js';
import { parseQuery } from '../http/query.js';
import { crawlParamsSchema } from './crawl.params.js';
import { CrawlService, type CrawlResponse } from './crawl.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class CrawlController {
  private readonly schema;

  constructor(
    private readonly service: CrawlService,
    @Inject(TRAWL_CONFIG) config: TrawlConfig,
  ) {
    this.schema = crawlParamsSchema(config.CRAWL_MAX_URLS);
  }

  @Get('crawl')
  crawl(@CurrentPrincipal() principal: Principal, @RequestMeter() meter: RequestOutcome, @Query() query: unknown): Promise<CrawlResponse> {
    return this.service.crawl(principal, parseQuery(this.schema, query), meter);
  }
}
