/** `/account/…`: the calling account's overview, usage, request log and keys (docs/console.md). */
import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { createKeyBodySchema, parseInput, requestsQuerySchema, usageQuerySchema } from '#contracts';
import { AccountGuard, CurrentAccount } from './account.guard.js';
import { AccountService } from './account.service.js';
import type { AccountCaller } from './console-auth.js';

@Controller('account')
@UseGuards(AccountGuard)
export class AccountController {
  constructor(private readonly service: AccountService) {}

  @Get()
  @Header('cache-control', 'no-store')
  overview(@CurrentAccount() caller: AccountCaller) {
    return this.service.overview(caller.accountId);
  }

  @Get('usage')
  @Header('cache-control', 'no-store')
  usage(@CurrentAccount() caller: AccountCaller, @Query() query: unknown) {
    return this.service.usage(caller.accountId, parseInput(usageQuerySchema, query).days);
  }

  @Get('requests')
  @Header('cache-control', 'no-store')
  requests(@CurrentAccount() caller: AccountCaller, @Query() query: unknown) {
    return this.service.requests(caller.accountId, parseInput(requestsQuerySchema, query));
  }

  @Get('requests/:id')
  @Header('cache-control', 'no-store')
  request(@CurrentAccount() caller: AccountCaller, @Param('id') id: string) {
    return this.service.request(caller.accountId, id);
  }

  @Get('crawls')
  @Header('cache-control', 'no-store')
  crawls(@CurrentAccount() caller: AccountCaller) {
    return this.service.activeCrawls(caller.accountId);
  }

  @Get('keys')
  @Header('cache-control', 'no-store')
  keys(@CurrentAccount() caller: AccountCaller) {
    return this.service.keys(caller.accountId);
  }

  @Post('keys')
  @Header('cache-control', 'no-store')
  createKey(@CurrentAccount() caller: AccountCaller, @Body() body: unknown) {
    return this.service.createKey(caller.accountId, parseInput(createKeyBodySchema, body ?? {}, 'body').name);
  }

  @Post('keys/:id/revoke')
  @HttpCode(200)
  revokeKey(@CurrentAccount() caller: AccountCaller, @Param('id') id: string) {
    return this.service.revokeKey(caller.accountId, id);
  }
}
