/** `POST /map`: a site's URLs without their content (JSON body, validated before anything is charged). */
import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import type { Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { mapBodySchema, parseInput, type MapResponse } from '#contracts';
import { MapService } from '#crawls';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class MapController {
  private readonly schema;

  constructor(
    private readonly maps: MapService,
    @Inject(TRAWL_CONFIG) config: TrawlConfig,
  ) {
    this.schema = mapBodySchema(config.MAP_MAX_LINKS);
  }

  @Post('map')
  @HttpCode(200)
  map(@CurrentPrincipal() caller: Caller, @Body() body: unknown): Promise<MapResponse> {
    return this.maps.map(caller, parseInput(this.schema, body, 'body'));
  }
}
