/** `trawl console:link --id ACCOUNT [--url BASE]`: a one-time console sign-in link for an account (15 minutes, one use). */
import { parseArgs } from 'node:util';
import { consoleLinkUrl, issueSignInLink, LINK_TTL_MS } from '#billing';
import { ErrorCode, TrawlError } from '#contracts';
import { AccountsRepository, ConsoleRepository, Database } from '#db';
import { systemClock } from '#platform';
import type { Io } from './accounts-command.js';

export const CONSOLE_USAGE = `Console:
  console:link --id ID [--url http://host:port]                      a one-time sign-in link to the console (15 min, one use)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function runConsoleLinkCommand(args: string[], databaseUrl: string, defaultBaseUrl: string, io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { id: { type: 'string' }, url: { type: 'string' } }, strict: true });
  if (!values.id) throw new TrawlError(ErrorCode.INVALID_PARAMETER, 'console:link needs --id ACCOUNT_ID (npm run trawl -- accounts:list)');
  const db = new Database(databaseUrl, 2);
  try {
    const account = UUID.test(values.id) ? await new AccountsRepository(db).view(values.id) : null;
    if (!account) throw new TrawlError(ErrorCode.NOT_FOUND, `No account ${values.id}`);
    const { token, expiresAt } = await issueSignInLink(new ConsoleRepository(db), account.id, systemClock.now());
    io.stdout.write(`${consoleLinkUrl(values.url ?? defaultBaseUrl, token)}\n`);
    io.stderr.write(`A sign-in link to the console for "${account.name}": it works once, within ${LINK_TTL_MS / 60_000} minutes (until ${expiresAt.toISOString()}).\n`);
    return 0;
  } finally {
    await db.close();
  }
}
