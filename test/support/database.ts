/** A fresh, migrated Postgres database per test file, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '#db';
import { MIGRATIONS_DIR, TEST_PG_ADMIN_URL } from './env.js';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** `adminUrl`: the server to create it on (default: the suite's, TEST_PG_ADMIN_URL; e.g. a private Postgres). */
export async function createTestDatabase(options: { migrate?: boolean; adminUrl?: string } = {}): Promise<TestDatabase> {
  const adminUrl = options.adminUrl ?? TEST_PG_ADMIN_URL;
  const name = `trawl_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (options.migrate !== false) await migrate(url.toString(), MIGRATIONS_DIR);
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
