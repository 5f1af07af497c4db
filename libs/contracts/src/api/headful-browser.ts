/** `GET /headful-browser` parameters (spec §4.5), validated before anything is charged, and its response (§2.5). */
import { z } from 'zod';
import type { OutputFormat } from '../formats.js';
import type { ProxyCoverage } from '../proxy.js';
import { countryCode } from './fields.js';
import { flag } from './query.js';
import { urlListField } from './url-list.js';

/** Which countries the operator's residential proxies serve (`residentialCoverage`, from the same config as the workers). */
export type ResidentialCoverage = ProxyCoverage;

/** The formats `output_format` takes, in the contract's order (§4.5). */
export const HEADFUL_OUTPUT_FORMATS = ['markdown', 'enhanced_html', 'raw_html', 'page_text'] as const satisfies readonly OutputFormat[];

export function headfulBrowserParamsSchema(maxUrls: number, coverage: ResidentialCoverage) {
  return z
    .object({
      urls: urlListField(maxUrls),
      country: countryCode('country').default('us'),
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
    .transform((params, ctx) => {
      if (!coverage.serves(params.country)) {
        ctx.addIssue({
          code: 'custom',
          path: ['country'],
          message: `country "${params.country}" is not served: no residential proxy is configured for it on this server (configured: ${coverage.describe()})`,
        });
        return z.NEVER;
      }
      return params;
    });
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
}

export interface HeadfulBrowserResponse {
  status: 'success';
  data: HeadfulBrowserItem[];
  credits_used: number;
  credits_remaining: number;
}
