/**
 * Group commit for the two ledger writes every call makes. While one reserve statement for an account is in
 * flight, the account's next reserves queue up and go together in the following statement; settles do the same
 * across accounts. At low load nothing waits (a lone call's write goes at once); under load, N calls cost one
 * statement, one commit and one turn of the account's row lock instead of N — the lock that serialised an
 * account's concurrent calls. Every call still gets its own reserve row, reservation and settle row, so the ledger,
 * the reconciler and crash recovery see exactly what they saw before.
 */
import type { LedgerRepository, ReserveOutcome, SettleOutcome } from '#db';
import { GroupCommit } from '#platform/group-commit.js';

type Ledger = Pick<LedgerRepository, 'reserveMany' | 'settleFullMany' | 'settlePartly'>;

const ALL = '';

export class LedgerBatches {
  private readonly reserves: GroupCommit<{ requestId: string; amount: number }, ReserveOutcome>;
  private readonly settles: GroupCommit<{ requestId: string; charged: number }, SettleOutcome | null>;

  /** `reservationTtlMs`: how long a reservation may stay open before the reconciler refunds it. */
  constructor(ledger: Ledger, reservationTtlMs: number, maxBatch = 100) {
    this.reserves = new GroupCommit((accountId, items) => ledger.reserveMany(accountId, items, reservationTtlMs), maxBatch);
    this.settles = new GroupCommit(async (_all, items) => {
      const settled = await ledger.settleFullMany(items);
      // Partly used or already closed: one by one, returning the rest (or nothing when closed already).
      return Promise.all(items.map((i) => settled.get(i.requestId) ?? ledger.settlePartly(i.requestId, i.charged)));
    }, maxBatch);
  }

  reserve(accountId: string, requestId: string, amount: number): Promise<ReserveOutcome> {
    return this.reserves.add(accountId, { requestId, amount });
  }

  settle(requestId: string, charged: number): Promise<SettleOutcome | null> {
    return this.settles.add(ALL, { requestId, charged });
  }
}
