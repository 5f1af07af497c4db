/**
 * Firecrawl's ScrapeOptions (v2, and v1's spelling of the same) onto what a Trawl page job takes: the formats, the
 * page scope (onlyMainContent, includeTags, excludeTags), the device, headers, the wait, the budget, the proxy mode
 * and the country. The LLM formats — `summary`, and `json` (v2: `{ type: "json", schema?, prompt? }` in formats;
 * v1: `"json"` with `jsonOptions`) — become Trawl's LLM formats (`summary`, `json_schema`/`json_prompt` of
 * `/crawl`); `{ type: "highlights", query }` becomes Trawl's query-relevant chunks (`query` of `/crawl`). Fields a
 * client adds for bookkeeping are accepted and ignored; options Trawl cannot honour yet (the other LLM formats, a
 * custom viewport) are refused by name rather than silently dropped. `actions` (actions.ts) run on a browser engine.
 */
import { compile } from 'css-select';
import { z } from 'zod';
import { MAX_ACTION_WAIT_MS, MAX_CRAWL_QUERY_LENGTH, MAX_LLM_PROMPT_LENGTH, actionWaitMs, countryCode, formatsOf, type DeviceKind, type LlmFormats, type OutputFormats, type PageAction, type PageScope } from '#contracts';
import { actionsSchema } from './actions.js';

/** What the answer's Document carries. */
export interface DocumentFormats {
  markdown: boolean;
  html: boolean;
  rawHtml: boolean;
  links: boolean;
  images: boolean;
  screenshot: false | 'viewport' | 'full';
}

export type ProxyMode = 'basic' | 'stealth' | 'auto';

/** One scrape (or every page of a batch or crawl) as Trawl runs it. */
export interface ScrapePlan {
  /** Formats asked of the worker. */
  formats: OutputFormats;
  /** Formats handed back. */
  document: DocumentFormats;
  scope?: PageScope;
  device: DeviceKind;
  headers?: Record<string, string>;
  waitForMs: number;
  /** The client's budget for the page (ms); unset: the deployment's CRAWL_TIMEOUT_MS. */
  timeoutMs?: number;
  proxy: ProxyMode;
  geolocation?: string;
  removeBase64Images: boolean;
  /** The LLM formats asked for (`summary`, `json`), read from the page's Markdown. */
  llm?: LlmFormats;
  /** Where the client asked for them (for refusals): `formats.2`, `jsonOptions`. */
  llmPaths?: { summary?: string; json?: string };
  /** The `highlights` format: the page's passages most relevant to `query` (Trawl's query-relevant chunks). */
  highlights?: { query: string; path: string };
  /** Run on the rendered page before it is captured (a browser engine: a rendered page's credits). */
  actions?: PageAction[];
}

/** Formats Trawl does not have yet. */
const NOT_OFFERED: Record<string, string> = {
  extract: 'is not offered by this server: use formats ["json"] with jsonOptions (v1) or { type: "json", schema, prompt } (v2)',
  question: 'is not offered by this server (the LLM formats offered are summary and json)',
  query: 'is not offered by this server (the LLM formats offered are summary and json)',
  changeTracking: 'is not offered by this server (no page history is kept)',
  branding: 'is not offered by this server',
  product: 'is not offered by this server',
  menu: 'is not offered by this server',
  attributes: 'is not offered by this server',
  audio: 'is not offered by this server',
  video: 'is not offered by this server',
  rawBase64: 'is not offered by this server',
};
const OFFERED = ['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'screenshot@fullPage', 'summary', 'json', 'highlights'] as const;

const format = z.union([
  z.string({ error: 'formats: each format is a name or an object { type, ... }' }),
  z.looseObject({ type: z.string({ error: 'formats: an object format needs its type' }) }),
]);

const selectors = (name: string) =>
  z.array(z.string({ error: `${name} must be a list of CSS selectors` }), { error: `${name} must be a list of CSS selectors` }).max(100, `${name} has more than 100 selectors`).superRefine((list, ctx) => {
    for (const [i, selector] of list.entries()) {
      try {
        compile(selector);
      } catch {
        ctx.addIssue({ code: 'custom', path: [i], message: `${name}[${i}]: "${selector.slice(0, 80)}" is not a CSS selector` });
      }
    }
  });

/** Accepted and ignored: bookkeeping and caching hints that do not change what a fresh scrape returns. */
const ignored = z.unknown().optional();
export const IGNORED_CLIENT_FIELDS = {
  origin: ignored,
  integration: ignored,
  toolDetail: ignored,
  domainTools: ignored,
  zeroDataRetention: ignored,
  storeInCache: ignored,
  /** Read by the scrape route (the gateway's page cache); elsewhere every page is fresh, which any maxAge allows. */
  maxAge: ignored,
  minAge: ignored,
  parsers: ignored,
  parsePDF: ignored,
  blockAds: ignored,
  fastMode: ignored,
  skipTlsVerification: ignored,
  useMock: ignored,
  lockdown: ignored,
  __experimental_cache: ignored,
};

/** What to extract: a JSON Schema and/or a prompt (v2's json format object, v1's jsonOptions). */
const jsonSchema = (name: string) => z.record(z.string(), z.unknown(), { error: `${name} must be a JSON Schema object` });
const jsonPrompt = (name: string) =>
  z.string({ error: `${name} must be a string` }).trim().min(1, `${name} must not be empty`).max(MAX_LLM_PROMPT_LENGTH, `${name} must be at most ${MAX_LLM_PROMPT_LENGTH} characters`);

/** v1's options of the json format (a `systemPrompt` is refused as an unknown key: this server writes its own). */
const jsonOptions = z.strictObject(
  {
    schema: jsonSchema('jsonOptions.schema').optional(),
    prompt: jsonPrompt('jsonOptions.prompt').optional(),
    /** Trawl's extraction prompt already keeps the page's text apart from the instructions. */
    checkPromptInjection: ignored,
  },
  { error: 'jsonOptions must be an object { schema, prompt }' },
);

const int = (name: string, min: number, max: number) =>
  z.number({ error: `${name} must be an integer from ${min} to ${max}` }).int(`${name} must be an integer from ${min} to ${max}`).min(min, `${name} must be an integer from ${min} to ${max}`).max(max, `${name} must be an integer from ${min} to ${max}`);

/** The ScrapeOptions fields, as a shape to spread into a body schema (scrape, batch) or nest (crawl, search). */
export const SCRAPE_OPTION_FIELDS = {
  formats: z.array(format, { error: 'formats must be a list' }).optional(),
  onlyMainContent: z.boolean({ error: 'onlyMainContent must be true or false' }).optional(),
  includeTags: selectors('includeTags').optional(),
  excludeTags: selectors('excludeTags').optional(),
  headers: z.record(z.string(), z.string({ error: 'headers: each value must be a string' }), { error: 'headers must be an object of strings' }).optional(),
  waitFor: int('waitFor', 0, 60_000).optional(),
  timeout: int('timeout', 1_000, 300_000).optional(),
  mobile: z.boolean({ error: 'mobile must be true or false' }).optional(),
  removeBase64Images: z.boolean({ error: 'removeBase64Images must be true or false' }).optional(),
  location: z
    .strictObject({ country: countryCode('location.country').optional(), languages: z.array(z.string()).optional() }, { error: 'location must be an object { country, languages }' })
    .optional(),
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto'], { error: 'proxy must be one of basic, stealth, enhanced, auto' }).optional(),
  actions: actionsSchema.optional(),
  jsonOptions: jsonOptions.optional(),
  extract: z.undefined({ error: 'extract is not supported by this server: use formats ["json"] with jsonOptions' }).optional(),
  changeTrackingOptions: z.undefined({ error: 'changeTrackingOptions is not offered by this server' }).optional(),
  ...IGNORED_CLIENT_FIELDS,
};

export const scrapeOptionsSchema = z.strictObject(SCRAPE_OPTION_FIELDS, { error: 'scrapeOptions must be an object' });
export type ScrapeOptionsInput = z.output<typeof scrapeOptionsSchema>;

type Issue = { path: string; message: string };
type FormatEntry = string | { type: string; [k: string]: unknown };

/** What a formats list asks for: the Document's formats and the LLM formats with where they were named. */
export interface AskedFormats {
  document: DocumentFormats;
  llm?: LlmFormats;
  llmPaths?: { summary?: string; json?: string };
  highlights?: { query: string; path: string };
}

/** The formats a list names (with v1's jsonOptions), or the issue to refuse them with (path relative to the options). */
export function documentFormats(list: ReadonlyArray<FormatEntry>, json?: ScrapeOptionsInput['jsonOptions']): AskedFormats | Issue {
  const document: DocumentFormats = { markdown: false, html: false, rawHtml: false, links: false, images: false, screenshot: false };
  const asked: AskedFormats = { document };
  for (const [i, entry] of list.entries()) {
    const name = typeof entry === 'string' ? entry : entry.type;
    if (name in NOT_OFFERED) return { path: `formats.${i}`, message: `format ${name} ${NOT_OFFERED[name]}` };
    if (!(OFFERED as readonly string[]).includes(name)) return { path: `formats.${i}`, message: `format ${name} is unknown (offered: ${OFFERED.join(', ')})` };
    if (name === 'screenshot' || name === 'screenshot@fullPage') {
      const options: Record<string, unknown> = typeof entry === 'string' ? {} : entry;
      if (options.viewport !== undefined) return { path: `formats.${i}.viewport`, message: 'a custom screenshot viewport is not supported (the device sets it: mobile or desktop)' };
      document.screenshot = name === 'screenshot@fullPage' || options.fullPage === true ? 'full' : 'viewport';
    } else if (name === 'summary') {
      asked.llm = { summary: true, ...asked.llm };
      asked.llmPaths = { ...asked.llmPaths, summary: `formats.${i}` };
    } else if (name === 'highlights') {
      const query = highlightsQuery(entry, i);
      if (typeof query !== 'string') return query;
      asked.highlights = { query, path: `formats.${i}` };
    } else if (name === 'json') {
      const found = jsonFormat(entry, i, json);
      if ('message' in found) return found;
      asked.llm = { summary: asked.llm?.summary ?? false, json: found.json };
      asked.llmPaths = { ...asked.llmPaths, json: found.path };
    } else {
      document[name as 'markdown' | 'html' | 'rawHtml' | 'links' | 'images'] = true;
    }
  }
  if (json && !asked.llm?.json) return { path: 'jsonOptions', message: 'needs the format "json" in formats' };
  return asked;
}

/** The highlights format's query: `{ type: "highlights", query }`. */
function highlightsQuery(entry: FormatEntry, i: number): string | Issue {
  const path = `formats.${i}`;
  if (typeof entry === 'string') return { path, message: 'format highlights needs the object { type: "highlights", query }' };
  const unknown = Object.keys(entry).filter((k) => k !== 'type' && k !== 'query');
  if (unknown.length) return { path, message: `${unknown[0]} is not supported by this server` };
  const query = typeof entry.query === 'string' ? entry.query.trim() : undefined;
  if (!query) return { path, message: "query is required: the text the page's passages are ranked against" };
  if (query.length > MAX_CRAWL_QUERY_LENGTH) return { path, message: `query must be at most ${MAX_CRAWL_QUERY_LENGTH} characters` };
  return query;
}

/** The json format's schema and prompt: from its object (v2) or from jsonOptions (v1's `"json"`). */
function jsonFormat(entry: FormatEntry, i: number, options: ScrapeOptionsInput['jsonOptions']): { json: NonNullable<LlmFormats['json']>; path: string } | Issue {
  if (typeof entry === 'string') {
    if (!options) return { path: `formats.${i}`, message: 'format json needs jsonOptions { schema, prompt } (v1) or the object { type: "json", schema, prompt } (v2)' };
    if (options.schema === undefined && options.prompt === undefined) return { path: 'jsonOptions', message: 'needs schema or prompt (or both)' };
    return { json: { ...(options.schema ? { schema: options.schema } : {}), ...(options.prompt ? { prompt: options.prompt } : {}) }, path: 'jsonOptions' };
  }
  const path = `formats.${i}`;
  if (options) return { path: 'jsonOptions', message: 'only with the format "json" (the object { type: "json" } carries its own schema and prompt)' };
  const parsed = z.looseObject({ schema: jsonSchema('schema').optional(), prompt: jsonPrompt('prompt').optional(), checkPromptInjection: ignored }).safeParse(entry);
  if (!parsed.success) return { path, message: parsed.error.issues[0].message };
  const unknown = Object.keys(entry).filter((k) => !['type', 'schema', 'prompt', 'checkPromptInjection'].includes(k));
  if (unknown.length) return { path, message: `${unknown[0]} is not supported by this server` };
  const { schema, prompt } = parsed.data;
  if (schema === undefined && prompt === undefined) return { path, message: 'the json format needs schema or prompt (or both)' };
  return { json: { ...(schema ? { schema } : {}), ...(prompt ? { prompt } : {}) }, path };
}

/** Options (already checked by the schema) → the plan, or the cross-field issue to refuse them with. */
export function scrapePlan(options: ScrapeOptionsInput): ScrapePlan | { path: string; message: string } {
  const asked = documentFormats(options.formats ?? ['markdown'], options.jsonOptions);
  if ('path' in asked) return asked;
  const { document } = asked;
  const waitForMs = options.waitFor ?? 0;
  if (options.timeout !== undefined && waitForMs > options.timeout / 2) {
    return { path: 'waitFor', message: 'waitFor must be at most half of timeout' };
  }
  const proxy: ProxyMode = options.proxy === 'enhanced' ? 'stealth' : (options.proxy ?? 'auto');
  const actions = options.actions ?? [];
  const waits = waitForMs + actionWaitMs(actions);
  if (waits > MAX_ACTION_WAIT_MS) return { path: 'actions', message: `waitFor and the wait actions add up to ${waits} ms, more than the ${MAX_ACTION_WAIT_MS} ms allowed` };
  if (actions.length && options.timeout !== undefined && waits >= options.timeout) {
    return { path: 'actions', message: `waitFor and the wait actions add up to ${waits} ms, which does not fit in timeout (${options.timeout} ms)` };
  }
  const renders = waitForMs > 0 || document.screenshot !== false || actions.length > 0;
  if (options.headers && Object.keys(options.headers).length > 0 && (renders || proxy === 'stealth')) {
    return { path: 'headers', message: 'headers are sent by the plain-HTTP engine only: not with waitFor, actions, screenshot or proxy stealth' };
  }
  const scope: PageScope = {};
  if (options.includeTags?.length) scope.include = options.includeTags;
  if (options.excludeTags?.length) scope.exclude = options.excludeTags;
  if (options.onlyMainContent === false) scope.mainContent = false;
  const plan: ScrapePlan = {
    formats: formatsOf({ markdown: document.markdown, enhanced_html: document.html, raw_html: document.rawHtml || document.images }),
    document,
    device: options.mobile ? 'mobile' : 'desktop',
    waitForMs,
    proxy,
    removeBase64Images: options.removeBase64Images ?? true,
  };
  if (asked.highlights) plan.highlights = asked.highlights;
  if (actions.length) plan.actions = actions;
  if (asked.llm) {
    plan.llm = asked.llm;
    if (asked.llmPaths) plan.llmPaths = asked.llmPaths;
  }
  if (Object.keys(scope).length) plan.scope = scope;
  if (options.headers && Object.keys(options.headers).length) plan.headers = options.headers;
  if (options.timeout !== undefined) plan.timeoutMs = options.timeout;
  if (options.location?.country) plan.geolocation = options.location.country;
  return plan;
}

/** Whether the plan needs a browser (a wait, a screenshot or actions). */
export function plansRendering(plan: ScrapePlan): boolean {
  return plan.waitForMs > 0 || plan.document.screenshot !== false || (plan.actions?.length ?? 0) > 0;
}
