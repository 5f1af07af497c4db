-- Credits and balances are 64-bit: a grant or a plan past 2^31-1 credits must not overflow.
-- AlterTable
ALTER TABLE "accounts" ALTER COLUMN "balance" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "credit_ledger" ALTER COLUMN "amount" SET DATA TYPE BIGINT,
ALTER COLUMN "balance_after" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "reservations" ALTER COLUMN "amount" SET DATA TYPE BIGINT,
ALTER COLUMN "charged" SET DATA TYPE BIGINT;
