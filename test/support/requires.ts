/**
 * Tests that need something outside the repository say so here, out loud.
 *
 * - `corpusPresent`: ../shared/corpus is where it exists required. Under CI (`CI=true`) a missing corpus fails the
 *   run (the spec file throws while it loads); elsewhere the tests are skipped with a message naming the path.
 * - `toolPresent`: an optional tool of the machine (kubectl, the compose plugin, redis-server, a build). Missing, the
 *   test is skipped with a message saying which and why — never silently.
 */
import { existsSync } from 'node:fs';

export const inCi = (env: NodeJS.ProcessEnv = process.env) => env.CI === 'true' || env.CI === '1';

/** True when `path` exists; false (with a warning) when it does not; throws under CI. */
export function corpusPresent(path: string, what: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(path)) return true;
  corpusAbsent(path, what, env);
  return false;
}

/** Says that `what` skips because the corpus at `path` is absent (or incomplete); throws under CI. */
export function corpusAbsent(path: string, what: string, env: NodeJS.ProcessEnv = process.env): void {
  if (inCi(env)) throw new Error(`${what} needs ${path}, which is absent: the corpus is required when CI=true`);
  console.warn(`SKIPPED ${what}: ${path} is absent`);
}

/** True when `present`; false with a warning naming what is missing. */
export function toolPresent(present: boolean, what: string, missing: string): boolean {
  if (!present) console.warn(`SKIPPED ${what}: ${missing}`);
  return present;
}
