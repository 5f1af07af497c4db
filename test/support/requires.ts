/**
 * Tests that need something outside the repository say so here, out loud.
 *
 * - `toolPresent`: an optional tool of the machine (kubectl, the compose plugin, redis-server, a build). Missing, the
 *   test is skipped with a message saying which and why — never silently.
 */

/** True when `present`; false with a warning naming what is missing. */
export function toolPresent(present: boolean, what: string, missing: string): boolean {
  if (!present) console.warn(`SKIPPED ${what}: ${missing}`);
  return present;
}
