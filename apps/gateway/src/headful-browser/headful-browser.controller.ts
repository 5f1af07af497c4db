import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '#billing';
import type { HeadfulBrowserResponse } from '#contracts';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { HeadfulBrowserService } from './headful-browser.service.js';

@Controller()
@UseGuards(ApiKeyGuard)
export class HeadfulBrowserController {
  constructor(private readonly service: HeadfulBrowserService) {}

  @Get('headful-browser')
  run(@CurrentPrincipal() principal: Principal, @Query() query: unknown, @Req() request: FastifyRequest): Promise<HeadfulBrowserResponse> {
    return this.service.run(principal, this.service.parse(query), `${request.protocol}://${request.host}`);
  }
}
