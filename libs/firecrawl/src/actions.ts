/**
 * Firecrawl's scrape `actions` onto Trawl's page actions (#contracts PageAction): each checked here, before anything is
 * charged, with the refusal naming its field as the client sent it (`actions.3.selector`). At most MAX_PAGE_ACTIONS;
 * `wait` takes milliseconds or a selector; `scroll` goes down unless told `up`; a screenshot's `quality` is accepted
 * and ignored (screenshots are PNG); `pdf` prints the page.
 */
import { z } from 'zod';
import {
  ACTION_VIEWPORT, MAX_ACTION_KEY_CHARS, MAX_ACTION_SCRIPT_CHARS, MAX_ACTION_SELECTOR_CHARS, MAX_ACTION_TEXT_CHARS,
  MAX_ACTION_WAIT_MS, MAX_PAGE_ACTIONS, PDF_FORMATS, PDF_SCALE, type PageAction,
} from '#contracts';

export const OFFERED_ACTIONS = ['wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript', 'pdf'] as const;

const selector = z
  .string({ error: 'a CSS selector is required' })
  .trim()
  .min(1, 'a CSS selector is required')
  .max(MAX_ACTION_SELECTOR_CHARS, `the selector must be at most ${MAX_ACTION_SELECTOR_CHARS} characters`);
const type = z.string();
const dimension = (name: 'width' | 'height', min: number, max: number) =>
  z.number({ error: `${name} must be an integer from ${min} to ${max}` }).int(`${name} must be an integer from ${min} to ${max}`).min(min, `${name} must be an integer from ${min} to ${max}`).max(max, `${name} must be an integer from ${min} to ${max}`);

const SCHEMAS = {
  wait: z.strictObject({
    type,
    milliseconds: z.number({ error: `milliseconds must be an integer from 1 to ${MAX_ACTION_WAIT_MS}` }).int(`milliseconds must be an integer from 1 to ${MAX_ACTION_WAIT_MS}`).min(1, `milliseconds must be an integer from 1 to ${MAX_ACTION_WAIT_MS}`).max(MAX_ACTION_WAIT_MS, `milliseconds must be an integer from 1 to ${MAX_ACTION_WAIT_MS}`).optional(),
    selector: selector.optional(),
  }),
  click: z.strictObject({ type, selector, all: z.boolean({ error: 'all must be true or false' }).optional() }),
  write: z.strictObject({ type, text: z.string({ error: 'the text to type is required' }).max(MAX_ACTION_TEXT_CHARS, `text must be at most ${MAX_ACTION_TEXT_CHARS} characters`) }),
  press: z.strictObject({ type, key: z.string({ error: 'a key name is required (Enter, Tab, ArrowDown, …)' }).min(1, 'a key name is required (Enter, Tab, ArrowDown, …)').max(MAX_ACTION_KEY_CHARS, `key must be at most ${MAX_ACTION_KEY_CHARS} characters`) }),
  scroll: z.strictObject({ type, direction: z.enum(['up', 'down'], { error: 'direction must be up or down' }).optional(), selector: selector.optional() }),
  screenshot: z.strictObject({
    type,
    fullPage: z.boolean({ error: 'fullPage must be true or false' }).optional(),
    /** Screenshots are PNG (lossless): accepted and ignored. */
    quality: z.number({ error: 'quality must be a number from 0 to 100' }).min(0, 'quality must be a number from 0 to 100').max(100, 'quality must be a number from 0 to 100').optional(),
    viewport: z
      .strictObject(
        { width: dimension('width', ACTION_VIEWPORT.minWidth, ACTION_VIEWPORT.maxWidth), height: dimension('height', ACTION_VIEWPORT.minHeight, ACTION_VIEWPORT.maxHeight) },
        { error: 'viewport must be an object { width, height }' },
      )
      .optional(),
  }),
  scrape: z.strictObject({ type }),
  pdf: z.strictObject({
    type,
    format: z.enum(PDF_FORMATS, { error: `format must be one of ${PDF_FORMATS.join(', ')}` }).optional(),
    landscape: z.boolean({ error: 'landscape must be true or false' }).optional(),
    scale: z.number({ error: `scale must be a number from ${PDF_SCALE.min} to ${PDF_SCALE.max}` }).min(PDF_SCALE.min, `scale must be a number from ${PDF_SCALE.min} to ${PDF_SCALE.max}`).max(PDF_SCALE.max, `scale must be a number from ${PDF_SCALE.min} to ${PDF_SCALE.max}`).optional(),
  }),
  executeJavascript: z.strictObject({
    type,
    script: z.string({ error: 'a script is required' }).trim().min(1, 'a script is required').max(MAX_ACTION_SCRIPT_CHARS, `script must be at most ${MAX_ACTION_SCRIPT_CHARS} characters`),
  }),
} as const;

type Schemas = typeof SCHEMAS;
type Parsed = { [K in keyof Schemas]: z.output<Schemas[K]> }[keyof Schemas];

/** One action, checked, as Trawl runs it; or its issues (paths relative to the action). */
function pageAction(raw: unknown): PageAction | Array<{ path: Array<string | number>; message: string }> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [{ path: [], message: 'each action must be an object { type, ... }' }];
  const name = (raw as { type?: unknown }).type;
  if (typeof name !== 'string' || !(OFFERED_ACTIONS as readonly string[]).includes(name)) {
    return [{ path: ['type'], message: `${typeof name === 'string' ? `"${name.slice(0, 40)}" is not an action` : 'an action type is required'} (offered: ${OFFERED_ACTIONS.join(', ')})` }];
  }
  const parsed = SCHEMAS[name as keyof Schemas].safeParse(raw);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? { path: [issue.keys[0]], message: `${issue.keys[0]} is not an option of the ${name} action` }
        : { path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: issue.message },
    );
  }
  return toPageAction(parsed.data as Parsed & { type: (typeof OFFERED_ACTIONS)[number] });
}

function toPageAction(a: Parsed & { type: (typeof OFFERED_ACTIONS)[number] }): PageAction | Array<{ path: Array<string | number>; message: string }> {
  switch (a.type) {
    case 'wait': {
      const w = a as z.output<Schemas['wait']>;
      if ((w.milliseconds === undefined) === (w.selector === undefined)) return [{ path: [], message: 'wait takes either milliseconds or selector (one of them)' }];
      return w.milliseconds !== undefined ? { type: 'wait', milliseconds: w.milliseconds } : { type: 'wait', selector: w.selector! };
    }
    case 'click': {
      const c = a as z.output<Schemas['click']>;
      return { type: 'click', selector: c.selector, all: c.all ?? false };
    }
    case 'write':
      return { type: 'write', text: (a as z.output<Schemas['write']>).text };
    case 'press':
      return { type: 'press', key: (a as z.output<Schemas['press']>).key };
    case 'scroll': {
      const s = a as z.output<Schemas['scroll']>;
      return { type: 'scroll', direction: s.direction ?? 'down', ...(s.selector !== undefined ? { selector: s.selector } : {}) };
    }
    case 'screenshot': {
      const s = a as z.output<Schemas['screenshot']>;
      return { type: 'screenshot', fullPage: s.fullPage ?? false, ...(s.viewport ? { viewport: s.viewport } : {}) };
    }
    case 'scrape':
      return { type: 'scrape' };
    case 'executeJavascript':
      return { type: 'executeJavascript', script: (a as z.output<Schemas['executeJavascript']>).script };
    case 'pdf': {
      const p = a as z.output<Schemas['pdf']>;
      return { type: 'pdf', format: p.format ?? 'Letter', landscape: p.landscape ?? false, scale: p.scale ?? 1 };
    }
  }
}

const ACTION_DOCS: Record<(typeof OFFERED_ACTIONS)[number], string> = {
  wait: 'Wait `milliseconds`, or until an element matching `selector` is visible (one of them)',
  click: 'Click the first element matching `selector` (`all`: each of them, up to 100); fails the scrape when none matches',
  write: 'Type `text` into the focused element (click the input first)',
  press: 'Press `key` (Enter, Tab, ArrowDown, Control+A, …)',
  scroll: 'Scroll the page (or the element matching `selector`) a screen `down` (default) or `up`',
  screenshot: 'A PNG of the viewport (or `fullPage`), at `viewport` size when given; `quality` is accepted and ignored. Returned as a signed link in actions.screenshots',
  scrape: "The page's URL and HTML at this point, in actions.scrapes",
  executeJavascript: "Run `script` (an expression, or a function body with `return`) in the page; its value in actions.javascriptReturns as { type, value }",
  pdf: 'Print the page as a PDF (`format` Letter by default, A0–A6, Legal, Tabloid, Ledger; `landscape`; `scale` 0.1–2), backgrounds included. Returned as a signed link in actions.pdfs',
};

/** The items of `actions` as the OpenAPI document shows them (the checks above say the same in their messages). */
const ITEMS_DOC = {
  oneOf: OFFERED_ACTIONS.map((name) => {
    const json = z.toJSONSchema(SCHEMAS[name].extend({ type: z.literal(name) }), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    return { ...json, description: ACTION_DOCS[name] };
  }),
};

/** The `actions` option: a list of at most MAX_PAGE_ACTIONS actions, each checked; the output is Trawl's PageAction[]. */
export const actionsSchema = z
  .array(z.unknown(), { error: 'actions must be a list of actions' })
  .max(MAX_PAGE_ACTIONS, `actions: at most ${MAX_PAGE_ACTIONS} actions`)
  .meta({ items: ITEMS_DOC })
  .transform((list, ctx) => {
    const actions: PageAction[] = [];
    for (const [i, raw] of list.entries()) {
      const checked = pageAction(raw);
      if (Array.isArray(checked)) {
        for (const issue of checked) ctx.addIssue({ code: 'custom', path: [i, ...issue.path], message: issue.message });
      } else {
        actions.push(checked);
      }
    }
    return actions;
  });
