import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { Principal } from '#billing';
import type { SearchResponse } from '#contracts';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { SearchService } from './search.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class SearchController {
  constructor(private readonly service: SearchService) {}

  @Get('search')
  search(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<SearchResponse> {
    return this.service.search(principal, this.service.parse(query));
  }
}
