/** `GET /headful-browser` parameters (spec §4.5), validated before anything is charged, and its response (§2.5). */
import { z } from 'zod';
import type { OutputFormat } from '../formats.js';
import type { Egress, ProxyCoverage } from '../proxy.js';
import { countryCode } from './fields.js';
import { defaultedElsewhere, flag } from './query.js';
import { urlListField } from './url-list.js';

/** Which countries the operator's residential proxies serve (`residentialCoverage`, from the same config as the workers). */
export type ResidentialCoverage = ProxyCoverage;

/** The formats `output_format` takes, in the contract's order (§4.5). */
export const HEADFUL_OUTPUT_FORMATS = ['markdown', 'enhanced_html', 'raw_html', 'page_text'] as const satisfies readonly OutputFormat[];

/** `country` when none is given (spec §4.5). */
export const DEFAULT_HEADFUL_COUNTRY = 'us';

/**
 * `countryNamed`: whether the caller gave `country`. Which countries the deployment serves is decided per call, not
 * here (a well-formed request is never a 400 for it): see `egressFor`.
 */
export function headfulBrowserParamsSchema(maxUrls: number) {
  return z
    .object({
      urls: urlListField(maxUrls),
      // The contract's default (us) is applied below, where whether a country was named is kept; sent empty, none was.
      country: defaultedElsewhere(countryCode('country').optional()),
      output_format: z
        .string()
        .default('markdown')
        .transform((value, ctx) => {
          const format = value.trim();
          if (!(HEADFUL_OUTPUT_FORMATS as readonly string[]).includes(format)) {
            ctx.addIssue({ code: 'custom', message: `output_format must be exactly one of ${HEADFUL_OUTPUT_FORMATS.join(', ')}` });
            return z.NEVER;
          }
          return format as OutputFormat;
        }),
      screenshot: flag(false),
    })
    .transform(({ country, ...params }) => ({ ...params, country: country ?? DEFAULT_HEADFUL_COUNTRY, countryNamed: country !== undefined }));
}

export type HeadfulBrowserParams = z.output<ReturnType<typeof headfulBrowserParamsSchema>>;

/** One URL of the response: the one asked-for format, the screenshot link, and whether every attempt was blocked. */
export interface HeadfulBrowserItem {
  url: string;
  markdown?: string;
  enhanced_html?: string;
  raw_html?: string;
  page_text?: string;
  /** A signed, expiring link to the full-page PNG. */
  screenshot?: string;
  blocked: boolean;
  /** Trawl's addition: why this URL failed (`CODE: message`); it cost nothing. */
  error?: string;
  /** Trawl's addition: through a residential proxy of `country`, or direct (no proxy serves the default country). */
  egress: Egress;
}

export interface HeadfulBrowserResponse {
  status: 'success';
  data: HeadfulBrowserItem[];
  credits_used: number;
  credits_remaining: number;
}
