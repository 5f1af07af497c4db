import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { Principal } from '#billing';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal, RequestMeter } from '../http/principal.decorator.js';
import { parseQuery } from '../http/query.js';
import type { RequestOutcome } from '../http/request-context.js';
import { serpSearchParamsSchema } from './serp-search.params.js';
import { SerpSearchService, type SerpSearchBody } from './serp-search.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class SerpSearchController {
  constructor(private readonly service: SerpSearchService) {}

  @Get('serp-search')
  search(@CurrentPrincipal() principal: Principal, @RequestMeter() meter: RequestOutcome, @Query() query: unknown): Promise<SerpSearchBody> {
    return this.service.search(principal, parseQuery(serpSearchParamsSchema, query), meter);
  }
}
