/**
 * Site crawls (`/crawls`) and batches (`/batches`): JSON bodies to start one, reads by cursor, errors, an NDJSON
 * export, cancel. A batch is read at `/batches/{id}` or `/crawls/{id}` alike (one id space).
 */
import { Readable } from 'node:stream';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  batchBodySchema, crawlReadQuerySchema, parseInput,
  type CrawlJobCreated, type CrawlJobErrors, type CrawlJobLimits, type CrawlJobStatus, type CrawlJobSummary, type CrawlStatus,
} from '#contracts';
import { CrawlJobsService, siteCrawlSchema } from '#crawls';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { CurrentPrincipal } from '../http/principal.js';
import { publicBase } from '../http/public-base.js';

export function crawlLimits(c: TrawlConfig): CrawlJobLimits {
  return { maxPages: c.CRAWL_JOB_MAX_PAGES, maxBatchUrls: c.BATCH_MAX_URLS, maxConcurrency: c.CRAWL_JOB_MAX_CONCURRENCY };
}

@Controller()
@UseGuards(ApiKeyGuard)
export class CrawlsController {
  private readonly siteSchema;
  private readonly batchSchema;

  constructor(
    private readonly crawls: CrawlJobsService,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.siteSchema = siteCrawlSchema(crawlLimits(config));
    this.batchSchema = batchBodySchema(crawlLimits(config));
  }

  @Post('crawls')
  @HttpCode(201)
  startSite(@CurrentPrincipal() caller: Caller, @Body() body: unknown, @Req() request: FastifyRequest): Promise<CrawlJobCreated> {
    return this.crawls.startSite(caller, parseInput(this.siteSchema, body, 'body'), publicBase(this.config, request));
  }

  @Post('batches')
  @HttpCode(201)
  startBatch(@CurrentPrincipal() caller: Caller, @Body() body: unknown, @Req() request: FastifyRequest): Promise<CrawlJobCreated> {
    return this.crawls.startBatch(caller, parseInput(this.batchSchema, body, 'body'), publicBase(this.config, request));
  }

  @Get('crawls')
  active(@CurrentPrincipal() caller: Caller): Promise<{ crawls: CrawlJobSummary[] }> {
    return this.crawls.active(caller);
  }

  @Get(['crawls/:id', 'batches/:id'])
  status(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Query() query: unknown, @Req() request: FastifyRequest): Promise<CrawlJobStatus> {
    return this.crawls.status(caller, id, parseInput(crawlReadQuerySchema, query), publicBase(this.config, request));
  }

  @Get(['crawls/:id/errors', 'batches/:id/errors'])
  errors(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Query() query: unknown, @Req() request: FastifyRequest): Promise<CrawlJobErrors> {
    return this.crawls.errors(caller, id, parseInput(crawlReadQuerySchema, query), publicBase(this.config, request));
  }

  /** Every stored page as NDJSON, streamed a batch of rows at a time. */
  @Get(['crawls/:id/export', 'batches/:id/export'])
  async export(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    await this.crawls.own(caller, id);
    await reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="crawl-${id}.ndjson"`)
      .send(Readable.from(this.crawls.export(caller, id)));
  }

  @Delete(['crawls/:id', 'batches/:id'])
  cancel(@CurrentPrincipal() caller: Caller, @Param('id') id: string): Promise<{ id: string; status: CrawlStatus }> {
    return this.crawls.cancel(caller, id);
  }
}
