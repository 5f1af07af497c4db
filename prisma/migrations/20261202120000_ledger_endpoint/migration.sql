-- Work with no request-log row of its own (the pages of an asynchronous crawl) names its endpoint on the ledger row
-- that charges it, so usage by endpoint and by day counts it beside the calls.
-- AlterTable
ALTER TABLE "credit_ledger" ADD COLUMN "endpoint" VARCHAR(64);
