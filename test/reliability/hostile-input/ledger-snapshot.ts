/** An account's money at one moment: balance, ledger rows and open reservations — to prove nothing was charged. */
import type { Database } from '#db';

export interface LedgerSnapshot {
  balance: number;
  ledgerRows: number;
  ledgerSum: number;
  reservations: number;
}

export async function ledgerSnapshot(db: Database, accountId: string): Promise<LedgerSnapshot> {
  const { rows } = await db.pool.query<{ balance: string; rows: number; sum: string | null; reservations: number }>(
    `SELECT a.balance::text AS balance,
            (SELECT count(*)::int FROM credit_ledger WHERE account_id = a.id) AS rows,
            (SELECT sum(amount)::text FROM credit_ledger WHERE account_id = a.id) AS sum,
            (SELECT count(*)::int FROM reservations WHERE account_id = a.id) AS reservations
       FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  const row = rows[0];
  return { balance: Number(row.balance), ledgerRows: row.rows, ledgerSum: Number(row.sum ?? 0), reservations: row.reservations };
}

/** Sets the balance to 0 through a ledger row, so balance and ledger still agree. */
export async function drainToZero(db: Database, accountId: string): Promise<void> {
  await db.pool.query(
    `WITH a AS (SELECT balance FROM accounts WHERE id = $1 FOR UPDATE),
          upd AS (UPDATE accounts SET balance = 0 WHERE id = $1)
     INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) SELECT $1, 'grant', -a.balance, 0, 'hostile-input: drained' FROM a`,
    [accountId],
  );
}
