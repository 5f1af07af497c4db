/**
 * The body of `POST /crawls` (and the `crawl_site` tool) with its path patterns compiled as the crawl will compile
 * them: an invalid, over-long or unsafe pattern is refused by the schema itself, naming the field, like every other
 * bad field — before anything is recorded or charged.
 */
import { siteCrawlBodySchema, TrawlError, type CrawlJobLimits } from '#contracts';
import { compilePatterns } from '#frontier';

export function siteCrawlSchema(limits: CrawlJobLimits) {
  return siteCrawlBodySchema(limits).superRefine((body, ctx) => {
    for (const field of ['include_paths', 'exclude_paths'] as const) {
      try {
        compilePatterns(body[field], field);
      } catch (error) {
        if (!(error instanceof TrawlError)) throw error;
        ctx.addIssue({ code: 'custom', path: [field], message: error.message });
        return;
      }
    }
  });
}
