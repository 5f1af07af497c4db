/** The admin HTTP API: the same operations as `npm run trawl -- accounts:…`. */
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountAdminService } from '#billing';
import { parseInput } from '#contracts';
import { ADMIN_BODIES } from './admin-bodies.js';
import { AdminTokenGuard } from './admin-token.guard.js';

@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly admin: AccountAdminService) {}

  @Get('plans')
  plans() {
    return this.admin.plans();
  }

  @Get('accounts')
  list() {
    return this.admin.list();
  }

  @Post('accounts')
  create(@Body() body: unknown) {
    const { name, plan } = parseInput(ADMIN_BODIES.create, body, 'body');
    return this.admin.create(name, plan);
  }

  @Get('accounts/:id')
  show(@Param('id') id: string) {
    return this.admin.report(id);
  }

  @Post('accounts/:id/keys/regenerate')
  regenerate(@Param('id') id: string) {
    return this.admin.regenerateKey(id);
  }

  @Post('accounts/:id/keys/revoke')
  @HttpCode(200)
  async revoke(@Param('id') id: string, @Body() body: unknown) {
    const { prefix } = parseInput(ADMIN_BODIES.revoke, body ?? {}, 'body');
    return { revoked: await this.admin.revokeKeys(id, prefix) };
  }

  @Post('accounts/:id/plan')
  @HttpCode(200)
  async setPlan(@Param('id') id: string, @Body() body: unknown) {
    await this.admin.setPlan(id, parseInput(ADMIN_BODIES.setPlan, body, 'body').plan);
    return this.admin.report(id);
  }

  @Post('accounts/:id/suspend')
  @HttpCode(200)
  async suspend(@Param('id') id: string) {
    await this.admin.setStatus(id, 'suspended');
    return this.admin.report(id);
  }

  @Post('accounts/:id/activate')
  @HttpCode(200)
  async activate(@Param('id') id: string) {
    await this.admin.setStatus(id, 'active');
    return this.admin.report(id);
  }

  @Post('accounts/:id/subscription')
  @HttpCode(200)
  async subscription(@Param('id') id: string, @Body() body: unknown) {
    const { expiresAt } = parseInput(ADMIN_BODIES.subscription, body, 'body');
    await this.admin.setSubscriptionExpiry(id, expiresAt ? new Date(expiresAt) : null);
    return this.admin.report(id);
  }

  @Post('accounts/:id/grant')
  @HttpCode(200)
  async grant(@Param('id') id: string, @Body() body: unknown) {
    return { balance: await this.admin.grant(id, parseInput(ADMIN_BODIES.grant, body, 'body').credits) };
  }

  @Post('accounts/:id/reset-period')
  @HttpCode(200)
  resetPeriod(@Param('id') id: string) {
    return this.admin.resetPeriod(id);
  }
}
