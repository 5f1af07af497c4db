/** `trawl accounts:*` and `trawl plans`: account administration from the shell (same service as /admin). */
import { parseArgs } from 'node:util';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock } from '#platform';
import { AccountsRepository, Database, LedgerRepository } from '#db';
import type { Redis } from 'ioredis';

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const ACCOUNT_COMMANDS = [
  'accounts:create',
  'accounts:list',
  'accounts:show',
  'accounts:key:regenerate',
  'accounts:key:revoke',
  'accounts:plan',
  'accounts:suspend',
  'accounts:activate',
  'accounts:grant',
  'accounts:reset-period',
  'plans',
] as const;

export const ACCOUNTS_USAGE = `Accounts:
  accounts:create --name NAME [--plan free|developer|pro|scale]   create an account; prints its id and first API key (once)
  accounts:list                                                      list accounts
  accounts:show --id ID                                              balance, period and usage this period
  accounts:key:regenerate --id ID                                    issue a new key, revoke the old ones
  accounts:key:revoke --id ID [--prefix trawl_xxxxxx]                revoke one key (by prefix) or all keys
  accounts:plan --id ID --plan PLAN                                  change plan (concurrency now, allowance next period)
  accounts:suspend --id ID | accounts:activate --id ID
  accounts:grant --id ID --credits N                                 add credits to this period
  accounts:reset-period --id ID                                      end the period now and start the next
  plans                                                              list plans`;

/** `redisPrefix`: REDIS_PREFIX, whose auth-invalidate channel every gateway of the deployment listens on. */
export async function runAccountsCommand(command: string, args: string[], databaseUrl: string, redis: Redis | null, io: Io, redisPrefix: string): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      id: { type: 'string' },
      prefix: { type: 'string' },
      credits: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const db = new Database(databaseUrl, 2);
  const accounts = new AccountsRepository(db);
  const ledger = new LedgerRepository(db);
  const admin = new AccountAdminService(accounts, ledger, new AuthService(accounts, systemClock, 0, redis, redisPrefix), systemClock);
  const print = (value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  const need = (name: 'id' | 'name' | 'plan' | 'credits'): string => {
    const value = values[name];
    if (!value) throw new UsageError(`${command} needs --${name}`);
    return value;
  };
  try {
    switch (command) {
      case 'accounts:create': {
        const created = await admin.create(need('name'), values.plan ?? 'free');
        print(created);
        io.stderr.write('Store the apiKey now: it is shown only once.\n');
        io.stderr.write(`Sign in to the console with it, or with a one-time link: npm run trawl -- console:link --id ${created.accountId}\n`);
        return 0;
      }
      case 'accounts:list':
        print(await admin.list());
        return 0;
      case 'accounts:show':
        print(await admin.report(need('id')));
        return 0;
      case 'accounts:key:regenerate':
        print(await admin.regenerateKey(need('id')));
        io.stderr.write('Store the apiKey now: it is shown only once. Earlier keys are revoked.\n');
        return 0;
      case 'accounts:key:revoke':
        print({ revoked: await admin.revokeKeys(need('id'), values.prefix) });
        return 0;
      case 'accounts:plan':
        await admin.setPlan(need('id'), need('plan'));
        print(await admin.report(need('id')));
        return 0;
      case 'accounts:suspend':
      case 'accounts:activate':
        await admin.setStatus(need('id'), command === 'accounts:suspend' ? 'suspended' : 'active');
        print(await admin.report(need('id')));
        return 0;
      case 'accounts:grant':
        print({ balance: await admin.grant(need('id'), Number(need('credits'))) });
        return 0;
      case 'accounts:reset-period':
        print(await admin.resetPeriod(need('id')));
        return 0;
      case 'plans':
        print(await admin.plans());
        return 0;
      default:
        throw new UsageError(`Unknown command ${command}`);
    }
  } finally {
    await db.close();
  }
}

export class UsageError extends Error {}
