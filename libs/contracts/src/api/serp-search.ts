/** `GET /serp-search` parameters (spec §4.2), validated before anything is charged. */
import { z } from 'zod';
import { countryCode, freshness } from './fields.js';
import { integer } from './query.js';
import { SERP_TYPES, type SerpSearchResponseBody } from '../jobs.js';

export const MAX_SERP_PAGE = 100;

export const serpSearchParamsSchema = z.object({
  q: z
    .string({ error: 'q is required' })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'q is required').max(2048, 'q must be at most 2048 characters')),
  gl: countryCode('gl').default('us'),
  hl: z
    .string()
    .default('en')
    .transform((value, ctx) => {
      const tag = value.trim();
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/.test(tag)) {
        ctx.addIssue({ code: 'custom', message: 'hl must be a language tag such as en, de or pt-BR' });
        return z.NEVER;
      }
      return tag;
    }),
  tbs: freshness('tbs').optional(),
  page: integer('page', 1, MAX_SERP_PAGE, 1),
  num: integer('num', 1, 100, 10),
  type: z
    .string()
    .default('search')
    .transform((value, ctx) => {
      const type = value.trim();
      if (!(SERP_TYPES as readonly string[]).includes(type)) {
        ctx.addIssue({ code: 'custom', message: `type must be one of ${SERP_TYPES.join(', ')}` });
        return z.NEVER;
      }
      return type as (typeof SERP_TYPES)[number];
    }),
});

export type SerpSearchParams = z.output<typeof serpSearchParamsSchema>;

/** The `/serp-search` body (§2.2): the echoed parameters plus the parsed page. */
export type SerpSearchBody = { parameters: Record<string, string | number> } & SerpSearchResponseBody;
