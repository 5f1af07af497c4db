-- The console (issue #39): a name per API key, the HTTP request id and the per-URL outcomes of each call in the
-- request log, and one-time sign-in links (stored as sha256, single use, short-lived).
-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "name" VARCHAR(100);

-- AlterTable
ALTER TABLE "request_log" ADD COLUMN "request_id" VARCHAR(128),
ADD COLUMN "detail" JSONB;

-- CreateTable
CREATE TABLE "console_links" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_links_hash_key" ON "console_links"("hash");

-- CreateIndex
CREATE INDEX "console_links_account_id_idx" ON "console_links"("account_id");

-- AddForeignKey
ALTER TABLE "console_links" ADD CONSTRAINT "console_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
