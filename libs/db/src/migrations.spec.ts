/**
 * The migrations are hand-checked SQL applied by our own runner: these tests keep them honest against
 * schema.prisma (drift) and keep the runner's bookkeeping compatible with `prisma migrate deploy`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import pg from 'pg';
import internals from '@prisma/internals';
import { createTestDatabase, type TestDatabase } from '#test/support/database.js';
import { MIGRATIONS_DIR, REPO_ROOT } from '#test/support/env.js';
import { listMigrations, migrate } from './index.js';
import { PLANS } from '#billing/plans.js';

let db: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await db.drop();
});

const SCALAR_TYPES: Record<string, (native: string | undefined) => string> = {
  String: (n) => (n === 'Uuid' ? 'uuid' : n === 'Char' ? 'bpchar' : n === 'VarChar' ? 'varchar' : 'text'),
  Int: () => 'int4',
  BigInt: () => 'int8',
  Boolean: () => 'bool',
  DateTime: (n) => (n === 'Timestamptz' ? 'timestamptz' : 'timestamp'),
  Json: () => 'jsonb',
  Float: () => 'float8',
};

describe('migrations', () => {
  it('produce exactly the tables, columns, types, nullability and enums of schema.prisma (no drift)', async () => {
    const schema = await readFile(`${REPO_ROOT}/prisma/schema.prisma`, 'utf8');
    const dmmf = await internals.getDMMF({ datamodel: schema });
    const { rows: columns } = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const actual = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c]));
    const expected = new Set<string>();
    for (const model of dmmf.datamodel.models) {
      const table = model.dbName ?? model.name;
      for (const field of model.fields) {
        if (field.kind === 'object') continue;
        const column = `${table}.${field.dbName ?? field.name}`;
        expected.add(column);
        const found = actual.get(column);
        expect({ column, exists: Boolean(found) }).toEqual({ column, exists: true });
        if (!found) continue;
        const native = field.nativeType?.[0] as string | undefined;
        const type = field.kind === 'enum' ? field.type : SCALAR_TYPES[field.type]?.(native);
        expect({ column, type: found.udt_name }).toEqual({ column, type });
        expect({ column, nullable: found.is_nullable === 'YES' }).toEqual({ column, nullable: !field.isRequired });
      }
    }
    expect([...actual.keys()].filter((c) => !expected.has(c))).toEqual([]);

    for (const enumDef of dmmf.datamodel.enums) {
      const { rows } = await client.query<{ enumlabel: string }>(
        `SELECT e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = $1 ORDER BY e.enumsortorder`,
        [enumDef.name],
      );
      expect(rows.map((r) => r.enumlabel)).toEqual(enumDef.values.map((v) => v.dbName ?? v.name));
    }

    const { rows: indexes } = await client.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'`);
    for (const index of dmmf.datamodel.indexes) {
      const model = dmmf.datamodel.models.find((m) => m.name === index.model)!;
      const cols = index.fields.map((f) => {
        const field = model.fields.find((x) => x.name === f.name)!;
        return field.dbName ?? field.name;
      });
      const table = model.dbName ?? model.name;
      const match = indexes.some((i) => i.indexdef.includes(` ON public.${table} `) && i.indexdef.includes(`(${cols.join(', ')})`));
      expect({ table, index: cols.join(','), exists: match }).toEqual({ table, index: cols.join(','), exists: true });
    }
  });

  it('keep Prisma bookkeeping: one finished row per migration with the sha256 checksum', async () => {
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    );
    const files = await listMigrations(MIGRATIONS_DIR);
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(createHash('sha256').update(files[i].sql).digest('hex'));
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('are idempotent: a second run applies nothing', async () => {
    const outcome = await migrate(db.url, MIGRATIONS_DIR);
    expect(outcome.applied).toEqual([]);
    expect(outcome.alreadyApplied.length).toBeGreaterThan(0);
  });

  it('refuse to continue past a failed migration (Prisma P3009)', async () => {
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ('00000000-0000-0000-0000-000000000001', 'x', '99999999999999_broken', now())`,
    );
    await expect(migrate(db.url, MIGRATIONS_DIR)).rejects.toThrow(/P3009/);
    await client.query(`DELETE FROM _prisma_migrations WHERE migration_name = '99999999999999_broken'`);
  });

  it('seed the plans of the contract (spec §2.6)', async () => {
    const { rows } = await client.query('SELECT id, name, monthly_credits, concurrency_limit, price_usd_cents FROM plans ORDER BY monthly_credits');
    expect(rows).toEqual(
      PLANS.map((p) => ({ id: p.id, name: p.name, monthly_credits: p.monthlyCredits, concurrency_limit: p.concurrencyLimit, price_usd_cents: p.priceUsdCents })),
    );
  });
});
