import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { Principal } from '#billing';
import { parseQuery, serpSearchParamsSchema, type SerpSearchBody } from '#contracts';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { SerpSearchService } from './serp-search.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class SerpSearchController {
  constructor(private readonly service: SerpSearchService) {}

  @Get('serp-search')
  search(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<SerpSearchBody> {
    return this.service.search(principal, parseQuery(serpSearchParamsSchema, query));
  }
}
