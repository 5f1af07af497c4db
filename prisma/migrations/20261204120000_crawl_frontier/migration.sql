-- A crawl's frontier past a bound (CRAWL_FRONTIER_REDIS_URLS pending URLs in Redis) goes on in Postgres, so Redis
-- holds a crawl in bounded memory whatever its size; its rows go back to Redis in `seq` order as the queue drains.
-- CreateTable
CREATE TABLE "crawl_frontier" (
    "job_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "host" TEXT NOT NULL,
    "entry" TEXT NOT NULL,

    CONSTRAINT "crawl_frontier_pkey" PRIMARY KEY ("job_id","hash")
);

-- CreateIndex
CREATE INDEX "crawl_frontier_job_id_seq_idx" ON "crawl_frontier"("job_id", "seq");

-- AddForeignKey
ALTER TABLE "crawl_frontier" ADD CONSTRAINT "crawl_frontier_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "crawl_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
