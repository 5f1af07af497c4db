/**
 * Group commit for the two ledger writes every call makes (and a crawl page's: `reserveOnce`, `refund`). While one reserve statement for an account is in
 * flight, the account's next reserves queue up and go together in the following statement; settles do the same
 * across accounts. At low load nothing waits (a lone call's write goes as its turn of the event loop ends); under load, N calls cost one
 * statement, one commit and one turn of the account's row lock instead of N — the lock that serialised an
 * account's concurrent calls. Every call still gets its own reserve row, reservation and settle row, so the ledger,
 * the reconciler and crash recovery see exactly what they saw before.
 */
import type { LedgerRepository, ReserveOutcome, SettleOutcome } from '#db';
import { GroupCommit } from '#platform/group-commit.js';

type Ledger = Pick<LedgerRepository, 'reserveMany' | 'reserveOnceMany' | 'settleFullMany' | 'settlePartly' | 'refundMany'>;
type OnceState = Awaited<ReturnType<LedgerRepository['reserveOnceMany']>>[number];

const ALL = '';

export class LedgerBatches {
  private readonly reserves: GroupCommit<{ requestId: string; amount: number }, ReserveOutcome>;
  private readonly reservesOnce: GroupCommit<{ requestId: string; amount: number }, OnceState>;
  private readonly settles: GroupCommit<{ requestId: string; charged: number }, SettleOutcome | null>;
  private readonly refunds: GroupCommit<{ requestId: string; note: string }, boolean>;

  /**
   * `reservationTtlMs`: how long a reservation may stay open before the reconciler refunds it. `reserveOnceLingerMs`,
   * `refundLingerMs`: how long a crawl page's `reserveOnce` and `refund` wait for others to go with (no answer to a
   * caller waits on them); a call's `reserve` and `settle` go at the end of their turn.
   */
  constructor(
    ledger: Ledger,
    reservationTtlMs: number,
    { maxBatch = 100, reserveOnceLingerMs = 0, refundLingerMs = 0 }: { maxBatch?: number; reserveOnceLingerMs?: number; refundLingerMs?: number } = {},
  ) {
    this.reserves = new GroupCommit((accountId, items) => ledger.reserveMany(accountId, items, reservationTtlMs), { maxBatch });
    // A request twice in one batch (one process's visit of a URL again after its lease was lost): the first reserves
    // (or refunds), the later ones find it open (or closed), as they would one by one.
    const byRequest = (item: { requestId: string }) => item.requestId;
    this.reservesOnce = new GroupCommit<{ requestId: string; amount: number }, OnceState>(
      (accountId, items) => ledger.reserveOnceMany(accountId, items, reservationTtlMs),
      { maxBatch, lingerMs: reserveOnceLingerMs, repeats: { identity: byRequest, repeat: () => 'open' } },
    );
    this.refunds = new GroupCommit<{ requestId: string; note: string }, boolean>(
      async (_all, items) => {
        const refunded = await ledger.refundMany(items);
        return items.map((item) => refunded.has(item.requestId));
      },
      { maxBatch, lingerMs: refundLingerMs, repeats: { identity: byRequest, repeat: () => false } },
    );
    this.settles = new GroupCommit(async (_all, items) => {
      const settled = await ledger.settleFullMany(items);
      // Partly used or already closed: one by one, returning the rest (or nothing when closed already).
      return Promise.all(items.map((i) => settled.get(i.requestId) ?? ledger.settlePartly(i.requestId, i.charged)));
    }, { maxBatch });
  }

  reserve(accountId: string, requestId: string, amount: number): Promise<ReserveOutcome> {
    return this.reserves.add(accountId, { requestId, amount });
  }

  /** A reservation that may exist already (a crawl page whose process died): `reserved`, or the state it is in. */
  reserveOnce(accountId: string, requestId: string, amount: number): Promise<OnceState> {
    return this.reservesOnce.add(accountId, { requestId, amount });
  }

  /** Returns a reservation whole (nothing used): true when it was open, false when it had been closed already. */
  refund(requestId: string, note: string): Promise<boolean> {
    return this.refunds.add(ALL, { requestId, note });
  }

  settle(requestId: string, charged: number): Promise<SettleOutcome | null> {
    return this.settles.add(ALL, { requestId, charged });
  }
}
