-- Asynchronous crawls (site crawls and batches): the job, its stored pages and its errors; and the account's webhook key.
-- CreateEnum
CREATE TYPE "CrawlKind" AS ENUM ('site', 'batch');

-- CreateEnum
CREATE TYPE "CrawlStatus" AS ENUM ('queued', 'running', 'completed', 'cancelled', 'failed', 'credits_exhausted');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN "webhook_secret" VARCHAR(64);

-- CreateTable
CREATE TABLE "crawl_jobs" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" "CrawlKind" NOT NULL,
    "status" "CrawlStatus" NOT NULL DEFAULT 'queued',
    "url" TEXT,
    "options" JSONB NOT NULL,
    "discovered" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "credits" BIGINT NOT NULL DEFAULT 0,
    "error" VARCHAR(500),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crawl_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_pages" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "source_url" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "depth" INTEGER NOT NULL,
    "content" JSONB NOT NULL,
    "bytes" INTEGER NOT NULL,
    "request_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_errors" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "code" VARCHAR(64) NOT NULL,
    "message" VARCHAR(500) NOT NULL,
    "robots" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_errors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "crawl_jobs_account_id_status_idx" ON "crawl_jobs"("account_id", "status");

-- CreateIndex
CREATE INDEX "crawl_jobs_expires_at_idx" ON "crawl_jobs"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_pages_job_id_url_key_key" ON "crawl_pages"("job_id", "url_key");

-- CreateIndex
CREATE INDEX "crawl_pages_job_id_id_idx" ON "crawl_pages"("job_id", "id");

-- CreateIndex
CREATE INDEX "crawl_errors_job_id_id_idx" ON "crawl_errors"("job_id", "id");

-- AddForeignKey
ALTER TABLE "crawl_jobs" ADD CONSTRAINT "crawl_jobs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_pages" ADD CONSTRAINT "crawl_pages_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "crawl_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_errors" ADD CONSTRAINT "crawl_errors_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "crawl_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
