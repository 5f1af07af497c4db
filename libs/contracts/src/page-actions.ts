/**
 * Page actions: what a rendered page job does to the page after it settled and before its formats are captured —
 * wait, click, write, press, scroll, screenshot, scrape, executeJavascript, pdf (Firecrawl's scrape `actions`, run by
 * any browser engine, headless or headed). Bounded here, once, for the gateway that checks a request and the worker that runs it.
 */

/** Actions one page job may run (Firecrawl's limit). */
export const MAX_PAGE_ACTIONS = 50;
/** Milliseconds of `wait` actions (and the scrape's own waitFor) one job may ask for altogether (Firecrawl's limit). */
export const MAX_ACTION_WAIT_MS = 60_000;
/** Characters of one executeJavascript script. */
export const MAX_ACTION_SCRIPT_CHARS = 50_000;
/** Characters one `write` action types. */
export const MAX_ACTION_TEXT_CHARS = 10_000;
/** Characters of one CSS selector. */
export const MAX_ACTION_SELECTOR_CHARS = 1_000;
/** Characters of one `press` key name (`Enter`, `Control+A`). */
export const MAX_ACTION_KEY_CHARS = 50;
/** Bytes of one script's return value, as JSON; a larger one fails the action. */
export const MAX_SCRIPT_RETURN_BYTES = 256 * 1024;
/** Bytes all of a job's action outputs (screenshots, captured HTML, script returns) may take together. */
export const MAX_ACTION_OUTPUT_BYTES = 32 * 1024 * 1024;
/** Elements one `click` with `all` clicks at most. */
export const MAX_CLICK_ALL = 100;
/** A screenshot action's viewport bounds (CSS pixels). */
export const ACTION_VIEWPORT = { minWidth: 200, maxWidth: 3_840, minHeight: 200, maxHeight: 4_320 } as const;

/** Paper sizes of the pdf action (Firecrawl's, as Chromium names them). */
export const PDF_FORMATS = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;
export type PdfFormat = (typeof PDF_FORMATS)[number];
/** The pdf action's scale bounds (Chromium's). */
export const PDF_SCALE = { min: 0.1, max: 2 } as const;

export type PageAction =
  | { type: 'wait'; milliseconds: number }
  | { type: 'wait'; selector: string }
  | { type: 'click'; selector: string; all: boolean }
  | { type: 'write'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction: 'up' | 'down'; selector?: string }
  | { type: 'screenshot'; fullPage: boolean; viewport?: { width: number; height: number } }
  | { type: 'scrape' }
  | { type: 'executeJavascript'; script: string }
  | { type: 'pdf'; format: PdfFormat; landscape: boolean; scale: number };

export type PageActionType = PageAction['type'];

/** What the actions produced, each kind in the order its actions ran. */
export interface PageActionsOutcome {
  /** Base64 PNGs of the screenshot actions. */
  screenshots: string[];
  /** The page's URL and HTML at each scrape action. */
  scrapes: Array<{ url: string; html: string }>;
  /** Each executeJavascript action's return value: its `typeof` and its JSON value (null when not representable). */
  javascriptReturns: Array<{ type: string; value: unknown }>;
  /** Base64 PDFs of the pdf actions (absent from a worker that predates them). */
  pdfs?: string[];
}

/** The total of the `wait` actions' milliseconds. */
export function actionWaitMs(actions: readonly PageAction[]): number {
  return actions.reduce((sum, a) => sum + (a.type === 'wait' && 'milliseconds' in a ? a.milliseconds : 0), 0);
}
