/**
 * Applies prisma/migrations/<name>/migration.sql in order, keeping Prisma's own bookkeeping table
 * (`_prisma_migrations`) exactly as `prisma migrate deploy` would, so either tool can take over.
 * Needed because Prisma's native schema engine cannot be downloaded on air-gapped machines.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const PRISMA_ADVISORY_LOCK = 72707369;

export interface MigrationOutcome {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export async function listMigrations(dir: string): Promise<Array<{ name: string; sql: string; checksum: string }>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(path.join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
}

export async function migrate(connectionString: string, migrationsDir: string): Promise<MigrationOutcome> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK})`);
    try {
      return await applyPending(client, migrationsDir);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${PRISMA_ADVISORY_LOCK})`);
    }
  } finally {
    await client.end();
  }
}

async function applyPending(client: pg.Client, migrationsDir: string): Promise<MigrationOutcome> {
  await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const { rows } = await client.query<{ migration_name: string; finished_at: Date | null; rolled_back_at: Date | null }>(
    'SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"',
  );
  const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} failed earlier and blocks further migrations (Prisma P3009). ` +
        'Fix the database, then mark it rolled back (`prisma migrate resolve --rolled-back`).',
    );
  }
  const done = new Set(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => r.migration_name));
  const outcome: MigrationOutcome = { applied: [], alreadyApplied: [] };
  for (const migration of await listMigrations(migrationsDir)) {
    if (done.has(migration.name)) {
      outcome.alreadyApplied.push(migration.name);
      continue;
    }
    const id = randomUUID();
    await client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    try {
      // One simple-protocol query: the whole script runs in one implicit transaction, as Prisma does.
      await client.query(migration.sql);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, message]);
      throw new MigrationError(`Migration ${migration.name} failed: ${message}`);
    }
    await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
    outcome.applied.push(migration.name);
  }
  return outcome;
}
