/** Racing a job's step against its deadline and the job's failure (a crashed page, a lost browser). */

/** Rejects with `onTimeout()` at `until` (performance.now() time), or with the job's failure, whichever settles first. */
export function bounded<T>(work: Promise<T>, until: number, onTimeout: () => Error, failure: Promise<never>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, until - performance.now()));
  });
  work.catch(() => undefined); // the loser of the race must not surface as an unhandled rejection
  return Promise.race([work, timeout, failure]).finally(() => clearTimeout(timer));
}
