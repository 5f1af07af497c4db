/**
 * An account's concurrency slots as a crawl's pages take them: a lease of the account's gate (#billing's
 * ConcurrencyGate) that a page gives back is kept for a moment and handed to the account's next page in this
 * process, instead of being released and taken again — two Redis round trips and a renewal timer a page less while
 * a crawl runs. A kept lease still counts against the account's limit (it is held), and is released when nobody
 * takes it within KEEP_MS or the process closes.
 */
import type { ConcurrencyGate, Lease } from '#billing';

/** How long a returned lease waits for the account's next page. */
const KEEP_MS = 50;

export class AccountSlots {
  private readonly kept = new Map<string, Array<{ lease: Lease; timer: NodeJS.Timeout }>>();

  constructor(
    private readonly gate: Pick<ConcurrencyGate, 'acquire'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** A slot of the account's, kept or new; null when the account has `limit` in flight. */
  async acquire(accountId: string, limit: number): Promise<Lease | null> {
    const kept = this.kept.get(accountId)?.pop();
    if (kept) {
      clearTimeout(kept.timer);
      return kept.lease;
    }
    return this.gate.acquire(accountId, limit);
  }

  /** The page is done with its slot: kept for the account's next page, released after KEEP_MS. */
  release(accountId: string, lease: Lease): void {
    let list = this.kept.get(accountId);
    if (!list) this.kept.set(accountId, (list = []));
    const entry = {
      lease,
      timer: setTimeout(() => {
        const at = list.indexOf(entry);
        if (at >= 0) list.splice(at, 1);
        if (list.length === 0 && this.kept.get(accountId) === list) this.kept.delete(accountId);
        lease.release().catch(this.onError);
      }, KEEP_MS),
    };
    list.push(entry);
  }

  /** Releases every kept lease (the process is closing). */
  async close(): Promise<void> {
    const all = [...this.kept.values()].flat();
    this.kept.clear();
    for (const { timer } of all) clearTimeout(timer);
    await Promise.allSettled(all.map(({ lease }) => lease.release()));
  }
}
