/**
 * Reserve-then-settle metering. A request reserves its worst case before any work, settles what it used after,
 * and a reconciler refunds reservations whose gateway died before settling.
 */
import { ErrorCode, TrawlError } from '#contracts';
import type { LedgerRepository } from '#db';
import { LedgerBatches } from './ledger-batches.js';

export class CreditService {
  private readonly batches: LedgerBatches;

  constructor(
    private readonly ledger: LedgerRepository,
    reservationTtlMs: number,
  ) {
    this.batches = new LedgerBatches(ledger, reservationTtlMs);
  }

  /**
   * Holds `amount` credits for the request and returns it, or refuses: `INSUFFICIENT_CREDITS` (402) on /serp-search,
   * `CREDITS_EXHAUSTED` (429) elsewhere. `lesser`: smaller amounts the request can make do with (a Firecrawl `auto`
   * scrape's shorter ladders) — when the balance does not cover `amount`, the largest of them it covers is held
   * instead, and returned. Each try is one atomic reserve that holds all of its amount or nothing, so a request holds
   * at most one reservation and the balance never goes below zero, whatever runs beside it; the balance a refusal
   * reports only skips the amounts it cannot cover (a stale one costs a try, never a wrong grant).
   */
  async reserve(accountId: string, requestId: string, amount: number, insufficientCode: ErrorCode, lesser: readonly number[] = []): Promise<number> {
    if (amount <= 0) return 0;
    let outcome = await this.batches.reserve(accountId, requestId, amount);
    if (outcome.ok) return amount;
    const steps = [...new Set(lesser)].filter((a) => a > 0 && a < amount).sort((a, b) => b - a);
    for (const step of steps) {
      if (outcome.balance !== null && step > outcome.balance) continue;
      outcome = await this.batches.reserve(accountId, requestId, step);
      if (outcome.ok) return step;
    }
    const least = steps.at(-1);
    const needs = least === undefined ? `up to ${amount}` : `${least} to ${amount}`;
    throw new TrawlError(insufficientCode, `This request needs ${needs} credits and the account has ${outcome.balance ?? 0} left in this period`);
  }

  /**
   * Charges `charged` of the reservation (0 refunds it all). Safe to call twice: the second call does nothing.
   * A reservation Postgres has no record of was lost in a crash (reserves do not wait for the disk): the call fails,
   * retryable and uncharged, rather than being answered for free.
   */
  async settle(requestId: string, reserved: number, charged: number): Promise<number> {
    if (reserved <= 0) return 0;
    if (charged <= 0) {
      await this.ledger.refund(requestId, 'nothing consumed');
      return 0;
    }
    // Part of the reservation goes back (a worst case reserved, less used): the statement that returns it, at once —
    // the batched full settle would match nothing first and cost a second statement.
    const outcome = charged < reserved ? await this.ledger.settlePartly(requestId, charged) : await this.batches.settle(requestId, charged);
    if (outcome) return outcome.charged;
    if ((await this.ledger.reservationState(requestId)) === 'missing') {
      throw new TrawlError(ErrorCode.SERVICE_UNAVAILABLE, 'The database lost this request\'s credit reservation (it restarted); nothing was charged, retry', 'transient');
    }
    return 0;
  }

  async refund(requestId: string, reason: string): Promise<void> {
    await this.ledger.refund(requestId, reason);
  }
}
