/** `/openapi.json`: the API description, without a key (it reveals nothing about accounts). */
import { Controller, Get, Inject } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { openApiDocument } from './openapi.document.js';

@Controller()
export class OpenApiController {
  private readonly document: Record<string, unknown>;

  constructor(@Inject(TRAWL_CONFIG) config: TrawlConfig) {
    this.document = openApiDocument(config);
  }

  @Get('openapi.json')
  openapi(): Record<string, unknown> {
    return this.document;
  }
}
