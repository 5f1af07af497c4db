/**
 * The metered part of every call, shared by all endpoints and MCP tools (ARCHITECTURE.md "Metering is per call"):
 * start a new billing period if the last one ended, take a concurrency lease, reserve the worst-case cost, do the
 * work, settle what it consumed, release the lease, write the call's request-log row. Failed work is refunded in
 * full; a charge never exceeds the reservation. The log row is written whatever happens to the HTTP connection, so
 * the ledger and the request log always agree.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, TrawlError, httpStatusOf } from '#contracts';
import type { CallDetail, RequestLogEntry } from '#db';
import { metrics } from '#metrics';
import type { Clock } from '#platform/clock.js';
import { outageError } from '#platform/outage.js';
import { markMetered, type CallContext, type Caller } from './call-context.js';
import type { Lease } from './concurrency-gate.js';

export interface MeteredWork<T> {
  /** The response body. */
  body: T;
  /** Credits consumed (clamped to the reservation). */
  charge: number;
  /** Per-URL outcomes for the request log (the console's request detail); bounded with `callDetailOf`. */
  detail?: CallDetail;
}

export interface MeteringPlan {
  /** Route or tool name for the request log, e.g. `/crawl`. */
  endpoint: string;
  /** Worst-case cost, reserved up front. */
  reserve: number;
  /**
   * Smaller amounts the call can make do with when the balance does not cover `reserve`: the largest one the balance
   * covers is reserved instead (CreditService.reserve). The work reads what was reserved in `call.meter.reserved` and
   * must fit in it: a charge is clamped to the reservation.
   */
  lesserReserves?: readonly number[];
  /** Error when the balance does not cover `reserve`: INSUFFICIENT_CREDITS (402) on /serp-search, else CREDITS_EXHAUSTED (429). */
  insufficient: typeof ErrorCode.INSUFFICIENT_CREDITS | typeof ErrorCode.CREDITS_EXHAUSTED;
  /** The call's own deadline when shorter than the gateway's REQUEST_DEADLINE_MS. */
  deadlineMs?: number;
}

/** The side effects the lifecycle needs, as narrow ports (the real ones are ConcurrencyGate, CreditService, …). */
export interface LifecyclePorts {
  gate: { acquire(accountId: string, limit: number): Promise<Lease | null> };
  credits: {
    /** Returns what was reserved: `amount`, or the largest of `lesser` the balance covers. */
    reserve(accountId: string, callId: string, amount: number, insufficientCode: ErrorCode, lesser?: readonly number[]): Promise<number>;
    settle(callId: string, reserved: number, charged: number): Promise<number>;
    refund(callId: string, reason: string): Promise<void>;
  };
  periods: { resetPeriodIfEnded(accountId: string, now: Date): Promise<unknown> };
  principals: { forgetAccount(accountId: string): void };
  log: { write(entry: RequestLogEntry, requestId?: string): void };
  clock: Clock;
}

export class CallLifecycle {
  constructor(
    private readonly ports: LifecyclePorts,
    /** REQUEST_DEADLINE_MS: the longest a call may run. */
    private readonly deadlineMs: number,
    private readonly newCallId: () => string = randomUUID,
  ) {}

  /** `principal` may carry where the call came from (Caller): its HTTP request id and the endpoint it is logged as. */
  async run<T>(principal: Caller, plan: MeteringPlan, work: (call: CallContext) => Promise<MeteredWork<T>>): Promise<MeteredWork<T>> {
    const { gate, credits, periods, principals, log, clock } = this.ports;
    const startedAt = Date.now();
    const endpoint = principal.endpoint ?? plan.endpoint;
    const call: CallContext = {
      principal,
      callId: this.newCallId(),
      endpoint,
      deadline: startedAt + Math.min(this.deadlineMs, plan.deadlineMs ?? Infinity),
      meter: { reserved: 0, charged: 0, errorCode: null },
    };
    let status = 200;
    let detail: CallDetail | null = null;
    try {
      if (principal.periodEnd <= clock.now()) {
        await periods.resetPeriodIfEnded(principal.accountId, clock.now());
        principals.forgetAccount(principal.accountId);
      }
      const lease = await gate.acquire(principal.accountId, principal.concurrencyLimit);
      if (!lease) {
        throw new TrawlError(
          ErrorCode.CONCURRENCY_LIMIT,
          `Concurrent request limit reached (${principal.concurrencyLimit}). Please wait for other requests to finish.`,
        );
      }
      metrics.leasesInUse.inc();
      let releasing: Promise<void> | undefined;
      // The slot is free once the work has ended: it is given back while the charge is written, not after.
      const release = (): Promise<void> => {
        if (!releasing) {
          metrics.leasesInUse.dec();
          releasing = lease.release().catch(() => undefined);
        }
        return releasing;
      };
      try {
        const reserved = Math.max(0, await credits.reserve(principal.accountId, call.callId, plan.reserve, plan.insufficient, plan.lesserReserves));
        call.meter.reserved = reserved;
        let outcome: MeteredWork<T>;
        try {
          outcome = await work(call);
        } catch (error) {
          void release();
          await credits.refund(call.callId, 'request failed');
          throw error;
        }
        detail = outcome.detail ?? null;
        const charge = Math.max(0, Math.min(outcome.charge, reserved));
        void release();
        call.meter.charged = await credits.settle(call.callId, reserved, charge);
        return { body: outcome.body, charge: call.meter.charged };
      } finally {
        await release();
      }
    } catch (error) {
      // Postgres or Redis lost mid-call is an outage (SERVICE_UNAVAILABLE), not a bug (INTERNAL): the client may retry.
      const failure = outageError(error) ?? error;
      const code = failure instanceof TrawlError ? failure.code : ErrorCode.INTERNAL;
      call.meter.errorCode = code;
      status = httpStatusOf(code);
      markMetered(failure);
      throw failure;
    } finally {
      if (call.meter.charged > 0) metrics.creditsCharged.inc({ endpoint: plan.endpoint }, call.meter.charged);
      log.write({
        id: call.callId,
        accountId: principal.accountId,
        endpoint: endpoint.slice(0, 64),
        status,
        credits: call.meter.charged,
        durationMs: Date.now() - startedAt,
        errorCode: call.meter.errorCode,
        createdAt: new Date(startedAt),
        detail,
      }, principal.requestId);
    }
  }
}
