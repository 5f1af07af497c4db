/** Firecrawl's v2 API (`/v2/...`), as `@mendable/firecrawl-js` 4.x and firecrawl-mcp call it. */
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { FirecrawlJobsService } from './firecrawl-jobs.service.js';
import { FirecrawlLookupService } from './firecrawl-lookup.service.js';
import { FirecrawlRoutes } from './firecrawl-routes.js';
import { FirecrawlScrapeService } from './firecrawl-scrape.service.js';
import { FirecrawlTeamService } from './firecrawl-team.service.js';

@Controller('v2')
@UseGuards(ApiKeyGuard)
export class FirecrawlV2Controller {
  private readonly routes: FirecrawlRoutes;

  constructor(
    @Inject(TRAWL_CONFIG) config: TrawlConfig,
    scraper: FirecrawlScrapeService,
    jobs: FirecrawlJobsService,
    team: FirecrawlTeamService,
    private readonly lookup: FirecrawlLookupService,
  ) {
    this.routes = new FirecrawlRoutes('v2', config, scraper, jobs, team);
  }

  @Post('scrape')
  @HttpCode(200)
  scrape(@CurrentPrincipal() caller: Caller, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.routes.scrape(caller, body, request);
  }

  @Post('crawl')
  @HttpCode(200)
  crawl(@CurrentPrincipal() caller: Caller, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.routes.startCrawl(caller, body, request);
  }

  @Get('crawl/active')
  active(@CurrentPrincipal() caller: Caller) {
    return this.routes.active(caller);
  }

  @Get('crawl/:id')
  crawlStatus(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Query() query: unknown, @Req() request: FastifyRequest) {
    return this.routes.status(caller, id, query, request, 'crawl');
  }

  @Delete(['crawl/:id', 'batch/scrape/:id'])
  cancel(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    return this.routes.cancel(caller, id);
  }

  @Get(['crawl/:id/errors', 'batch/scrape/:id/errors'])
  errors(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Req() request: FastifyRequest) {
    return this.routes.errors(caller, id, request);
  }

  @Post('batch/scrape')
  @HttpCode(200)
  batch(@CurrentPrincipal() caller: Caller, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.routes.startBatch(caller, body, request);
  }

  @Get('batch/scrape/:id')
  batchStatus(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Query() query: unknown, @Req() request: FastifyRequest) {
    return this.routes.status(caller, id, query, request, 'batch/scrape');
  }

  @Post('map')
  @HttpCode(200)
  map(@CurrentPrincipal() caller: Caller, @Body() body: unknown) {
    return this.lookup.map(caller, body, 'v2');
  }

  @Post('search')
  @HttpCode(200)
  search(@CurrentPrincipal() caller: Caller, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.lookup.search(caller, body, this.routes.base(request), 'v2');
  }

  @Get('team/credit-usage')
  creditUsage(@CurrentPrincipal() caller: Caller) {
    return this.routes.creditUsage(caller);
  }
}
