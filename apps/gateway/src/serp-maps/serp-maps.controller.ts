import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { Principal } from '#billing';
import type { SerpMapsResponse } from '#contracts';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { SerpMapsService } from './serp-maps.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class SerpMapsController {
  constructor(private readonly service: SerpMapsService) {}

  @Get('serp-maps')
  search(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<SerpMapsResponse> {
    return this.service.search(principal, this.service.parse(query));
  }
}
