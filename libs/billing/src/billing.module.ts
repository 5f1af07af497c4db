/**
 * Accounts, keys, the credit ledger, the concurrency gate and the call lifecycle, wired once per process over the
 * platform's Postgres and Redis.
 */
import { Global, Logger, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { AccountsRepository, LedgerRepository, RequestLogRepository } from '#db';
import { CLOCK, createLogger, REDIS } from '#platform';
import type { Clock } from '#platform/clock.js';
import { AccountAdminService } from './account-admin.service.js';
import { AuthService } from './auth.service.js';
import { CallLifecycle } from './call-lifecycle.js';
import { ConcurrencyGate } from './concurrency-gate.js';
import { CreditService } from './credit.service.js';
import { BillingReconciler } from './reconciler.js';
import { RequestLogWriter } from './request-log.writer.js';

const logger = new Logger('Billing');

@Global()
@Module({
  providers: [
    {
      provide: AuthService,
      inject: [AccountsRepository, CLOCK, TRAWL_CONFIG, REDIS],
      useFactory: (accounts: AccountsRepository, clock: Clock, c: TrawlConfig, redis: Redis) =>
        new AuthService(accounts, clock, c.AUTH_CACHE_MS, redis, c.REDIS_PREFIX),
    },
    {
      provide: ConcurrencyGate,
      inject: [REDIS, TRAWL_CONFIG],
      useFactory: (redis: Redis, c: TrawlConfig) => new ConcurrencyGate(redis, c.REDIS_PREFIX, c.CONCURRENCY_LEASE_MS),
    },
    {
      provide: CreditService,
      inject: [LedgerRepository, TRAWL_CONFIG],
      useFactory: (ledger: LedgerRepository, c: TrawlConfig) => new CreditService(ledger, c.RESERVATION_TTL_MS),
    },
    {
      provide: BillingReconciler,
      inject: [LedgerRepository, CLOCK],
      useFactory: (ledger: LedgerRepository, clock: Clock) => new BillingReconciler(ledger, clock),
    },
    {
      provide: AccountAdminService,
      inject: [AccountsRepository, LedgerRepository, AuthService, CLOCK],
      useFactory: (a: AccountsRepository, l: LedgerRepository, auth: AuthService, clock: Clock) => new AccountAdminService(a, l, auth, clock),
    },
    {
      provide: RequestLogWriter,
      inject: [RequestLogRepository, TRAWL_CONFIG],
      useFactory: (repo: RequestLogRepository, c: TrawlConfig) =>
        new RequestLogWriter(repo, (error) => logger.error({ err: error }, 'request log write failed'), 250, 500, createLogger(c.LOG_LEVEL, 'trawl')),
    },
    {
      provide: CallLifecycle,
      inject: [ConcurrencyGate, CreditService, LedgerRepository, AuthService, RequestLogWriter, CLOCK, TRAWL_CONFIG],
      useFactory: (
        gate: ConcurrencyGate,
        credits: CreditService,
        periods: LedgerRepository,
        principals: AuthService,
        log: RequestLogWriter,
        clock: Clock,
        c: TrawlConfig,
      ) => new CallLifecycle({ gate, credits, periods, principals, log, clock }, c.REQUEST_DEADLINE_MS),
    },
  ],
  exports: [AuthService, ConcurrencyGate, CreditService, BillingReconciler, AccountAdminService, RequestLogWriter, CallLifecycle],
})
export class BillingModule {}
