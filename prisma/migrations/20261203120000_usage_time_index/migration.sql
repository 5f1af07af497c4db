-- Usage over all accounts since a date (`/admin/usage`) read the request log and the ledger whole: neither is pruned,
-- and their only time indexes lead with the account. Both are appended in time order, so a block range index (a few
-- kilobytes, next to nothing per insert) finds a period's rows.
-- CreateIndex
CREATE INDEX "credit_ledger_created_at_idx" ON "credit_ledger" USING BRIN ("created_at");

-- CreateIndex
CREATE INDEX "request_log_created_at_idx" ON "request_log" USING BRIN ("created_at");
