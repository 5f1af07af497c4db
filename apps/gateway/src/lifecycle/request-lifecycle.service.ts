/**
 * The metered part of every request, shared by all endpoints (ARCHITECTURE.md "A request, end to end"):
 * start a new billing period if the last one ended, take a concurrency lease, reserve the worst-case cost,
 * do the work, settle what it consumed, release the lease. Failed work is refunded in full.
 */
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthService, ConcurrencyGate, CreditService, type Clock, type Principal } from '#billing';
import { ErrorCode, TrawlError } from '#contracts';
import { LedgerRepository } from '#db';
import { CLOCK } from '#platform';

export interface MeteredWork<T> {
  /** The response body. */
  body: T;
  /** Credits consumed (≤ the reservation). */
  charge: number;
}

export interface MeteringPlan {
  /** Worst-case cost, reserved up front. */
  reserve: number;
  /** Error when the balance does not cover `reserve`: INSUFFICIENT_CREDITS (402) on /serp-search, else CREDITS_EXHAUSTED (429). */
  insufficient: typeof ErrorCode.INSUFFICIENT_CREDITS | typeof ErrorCode.CREDITS_EXHAUSTED;
}

@Injectable()
export class RequestLifecycle {
  constructor(
    private readonly gate: ConcurrencyGate,
    private readonly credits: CreditService,
    private readonly ledger: LedgerRepository,
    private readonly auth: AuthService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `meter` receives the credits charged (for the request log). */
  async run<T>(
    principal: Principal,
    plan: MeteringPlan,
    meter: { credits?: number; requestId?: string },
    work: (requestId: string) => Promise<MeteredWork<T>>,
  ): Promise<MeteredWork<T>> {
    if (principal.periodEnd <= this.clock.now()) {
      await this.ledger.resetPeriodIfEnded(principal.accountId, this.clock.now());
      this.auth.forgetAccount(principal.accountId);
    }
    const lease = await this.gate.acquire(principal.accountId, principal.concurrencyLimit);
    if (!lease) {
      throw new TrawlError(
        ErrorCode.CONCURRENCY_LIMIT,
        `Concurrent request limit reached (${principal.concurrencyLimit}). Please wait for other requests to finish.`,
      );
    }
    const requestId = meter.requestId ?? randomUUID();
    try {
      await this.credits.reserve(principal.accountId, requestId, plan.reserve, plan.insufficient);
      let outcome: MeteredWork<T>;
      try {
        outcome = await work(requestId);
      } catch (error) {
        await this.credits.refund(requestId, 'request failed');
        throw error;
      }
      const charged = await this.credits.settle(requestId, plan.reserve, Math.min(outcome.charge, plan.reserve));
      meter.credits = charged;
      return { body: outcome.body, charge: charged };
    } finally {
      await lease.release().catch(() => undefined);
    }
  }
}
