/**
 * Resolves once the page's main thread has caught up after `load`: it has run the work that was queued when we asked
 * (the task running then, and the timers due within `pageWindowMs` of our asking, by the page's own clock: a renderer
 * starved of CPU runs a page's "fetch 50 ms after load" timer before ours, however late both fire). Asked through the job's CDP session: the
 * evaluation itself waits for the main thread, so a page still running scripts after load (hydration, a long task
 * that ends by fetching content) holds its settle until that work is done, where a timer in this process, which
 * cannot see the renderer, would call it settled mid-task. A page with nothing left to run answers within a few
 * milliseconds. (`requestIdleCallback` was tried first: with four pages rendering on two busy cores, a renderer often
 * got no idle period for a second, so the wait grew instead of shrinking.) `capMs` bounds a main thread that never
 * gets to us; never rejects: a navigation or a closed page ends the wait as well.
 */
import type { CDPSession } from 'playwright-core';

export function mainThreadCaughtUp(session: CDPSession, capMs: number, pageWindowMs = 0): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const delay = Math.max(0, Math.floor(pageWindowMs));
  const asked = session
    .send('Runtime.evaluate', { expression: `new Promise((done) => setTimeout(done, ${delay}))`, awaitPromise: true })
    .then(() => undefined, () => undefined);
  const capped = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(1, capMs));
  });
  return Promise.race([asked, capped]).finally(() => clearTimeout(timer));
}
