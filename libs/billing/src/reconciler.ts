/** Refunds reservations that were never settled (their gateway crashed) and starts ended billing periods. */
import type { LedgerRepository } from '#db';
import type { Clock } from '#platform/clock.js';

export interface ReconcileReport {
  refunded: number;
  periodsReset: number;
}

export class BillingReconciler {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
  ) {}

  async run(batch = 500): Promise<ReconcileReport> {
    let refunded = 0;
    for (const id of await this.ledger.expiredReservations(batch)) {
      if (await this.ledger.refund(id, 'reservation expired unsettled')) refunded++;
    }
    let periodsReset = 0;
    for (const accountId of await this.ledger.accountsWithEndedPeriod(this.clock.now(), batch)) {
      if (await this.ledger.resetPeriodIfEnded(accountId, this.clock.now())) periodsReset++;
    }
    return { refunded, periodsReset };
  }
}
