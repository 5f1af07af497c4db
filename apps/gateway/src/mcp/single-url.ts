/**
 * Tool inputs that take one `url` where the endpoint takes a `urls` list — the contract's `headful_browser` tool
 * (spec §4.5). Validation is still the endpoint's own schema, with `urls` read as `url` in its messages.
 */
import { z } from 'zod';
import type { JsonSchema } from '#contracts';

export function singleUrlSchema<P>(schema: z.ZodType<P>): z.ZodType<P> {
  return z.looseObject({ url: z.string({ error: 'url is required: one absolute http(s) URL' }) }).transform(({ url, ...rest }, ctx) => {
    const parsed = schema.safeParse({ ...rest, urls: [url] });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const path = issue.path.map((part) => (part === 'urls' ? 'url' : part)) as PropertyKey[];
      ctx.addIssue({ code: 'custom', path, message: issue.message.replace(/^urls\b/, 'url') });
    }
    return z.NEVER;
  });
}

/** The endpoint's input JSON Schema with its `urls` list replaced by one `url`. */
export function singleUrlJsonSchema(json: JsonSchema, description = 'The URL to fetch: one absolute http(s) URL.'): JsonSchema {
  const { urls: _urls, ...properties } = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((json.required as string[] | undefined) ?? []).filter((name) => name !== 'urls');
  return { ...json, properties: { url: { type: 'string', format: 'uri', maxLength: 2048, description }, ...properties }, required: ['url', ...required] };
}
