/**
 * Group commit: writes queued under a key go together. A key's first write goes at the end of the event loop's turn
 * that made it (or `lingerMs` later), with whatever else came under the key meanwhile; while that flush is in flight,
 * the key's next items queue up and go in the following one (at most `maxBatch` at a time). At low load a lone write
 * waits for nothing but its turn; under load N writes cost one statement, one commit and one turn of a row lock
 * instead of N. Each caller's promise settles with its own item's outcome, after the flush that carried it.
 */
interface Pending<I, O> {
  item: I;
  resolve: (outcome: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Items that are the same write (a retried request, whose id is its identity): only the first of a batch is flushed,
 * and a repeat gets `repeat` of the first's outcome — what it would have found one write later.
 */
export interface Repeats<I, O> {
  identity: (item: I) => string;
  repeat: (first: O) => O;
}

export interface GroupCommitOptions<I, O> {
  /** Items in one flush at most (100). */
  maxBatch?: number;
  repeats?: Repeats<I, O>;
  /**
   * How long a key's first write waits for company (0: to the end of its turn). For writes that no answer waits on
   * (a crawl's pages, its refunds), a few milliseconds turn one statement a page into one for several pages.
   */
  lingerMs?: number;
}

export class GroupCommit<I, O> {
  private readonly queues = new Map<string, Pending<I, O>[]>();
  private readonly maxBatch: number;
  private readonly repeats?: Repeats<I, O>;
  private readonly lingerMs: number;

  /** `flush` writes a batch of one key's items (distinct, with `repeats`) and answers one outcome per item, in order. */
  constructor(
    private readonly flush: (key: string, items: I[]) => Promise<O[]>,
    options: GroupCommitOptions<I, O> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 100;
    this.repeats = options.repeats;
    this.lingerMs = options.lingerMs ?? 0;
  }

  add(key: string, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      this.queues.set(key, [{ item, resolve, reject }]);
      // After this turn of the event loop: the writes its other callbacks make (callers woken by one reply from
      // Redis or Postgres go on in the same turn) join the first flush instead of waiting for the second.
      if (this.lingerMs > 0) setTimeout(() => void this.drain(key), this.lingerMs);
      else setImmediate(() => void this.drain(key));
    });
  }

  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, this.maxBatch);
      try {
        const outcomes = await this.write(key, batch.map((p) => p.item));
        batch.forEach((p, i) => p.resolve(outcomes[i]!));
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    this.queues.delete(key);
  }

  private async write(key: string, items: I[]): Promise<O[]> {
    if (!this.repeats) return this.flush(key, items);
    const { identity, repeat } = this.repeats;
    const slots = new Map<string, number>();
    const distinct: I[] = [];
    const at = items.map((item) => {
      const id = identity(item);
      const slot = slots.get(id);
      if (slot !== undefined) return { slot, first: false };
      slots.set(id, distinct.push(item) - 1);
      return { slot: distinct.length - 1, first: true };
    });
    const outcomes = await this.flush(key, distinct);
    return at.map(({ slot, first }) => (first ? outcomes[slot]! : repeat(outcomes[slot]!)));
  }
}
