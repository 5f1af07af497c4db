/**
 * A render job's page actions — wait, click, write, press, scroll, screenshot, scrape, executeJavascript, pdf — run on the
 * settled page in order, each within what is left of the job's budget before its capture. Every request the actions
 * set off (a click's navigation, a form sent with Enter, a script's fetch) leaves through the job's SSRF guard proxy,
 * as the page's own requests do. An action that cannot be done — no element matches its selector, an unknown key, a
 * script that throws or returns too much — fails the job with ACTION_FAILED naming it (`actions.3.selector`);
 * running out of budget is a TIMEOUT. Either way nothing of the page is handed back.
 */
import type { Locator, Page } from 'playwright-core';
import {
  ErrorCode, MAX_ACTION_OUTPUT_BYTES, MAX_CLICK_ALL, MAX_SCRIPT_RETURN_BYTES, TrawlError,
  type PageAction, type PageActionsOutcome,
} from '#contracts';
import { bounded } from './bounded.js';
import { renderTimeout } from './render-errors.js';

export interface ActionStage {
  page: Page;
  /** performance.now() by which every action must have finished (the capture's reserve is kept after it). */
  until: number;
  /** Rejects when the job fails under the actions (a crashed page, the browser gone, a limit of the job). */
  failure: Promise<never>;
  /** The document's HTML now, checked as the final capture is (a refused or failed navigation, the size limits). */
  capture: () => Promise<string>;
  /** Waits, until `until` at most, for what an interaction set off (a navigation, the requests it made) to go quiet. */
  settle: (until: number) => Promise<void>;
}

/** How long a click or scroll waits for its selector to match an element before failing. */
const ELEMENT_WAIT_MS = 3_000;
/** How long a matched element may take to become clickable (visible, enabled, not covered). */
const CLICK_WAIT_MS = 5_000;
/** The longest quiet-wait after an interaction (as the page's own settling is capped). */
const SETTLE_CAP_MS = 3_000;
/** Errors of the page or browser going away: the render job's own error handling names them. */
const GONE = /closed|crashed|disconnected|Target/i;
const BAD_SELECTOR = /while parsing|not a valid selector|Unexpected token|SyntaxError/i;

const failed = (message: string): TrawlError => new TrawlError(ErrorCode.ACTION_FAILED, message, 'permanent');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).replace(/^[a-zA-Z.]+: /, '').split('\n')[0].slice(0, 300);

export async function runActions(actions: readonly PageAction[], stage: ActionStage): Promise<PageActionsOutcome> {
  const out: PageActionsOutcome = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  let bytes = 0;
  const count = (n: number, i: number) => {
    bytes += n;
    if (bytes > MAX_ACTION_OUTPUT_BYTES) {
      throw new TrawlError(ErrorCode.TOO_LARGE, `actions.${i}: the actions' screenshots, PDFs, scrapes and script returns exceed ${MAX_ACTION_OUTPUT_BYTES} bytes`, 'permanent');
    }
  };
  for (const [i, action] of actions.entries()) {
    const run = new ActionRun(stage, i, action.type);
    try {
      await runOne(action, run, out, count);
    } catch (error) {
      throw run.explain(error, 'selector' in action ? action.selector : undefined);
    }
  }
  return out;
}

async function runOne(action: PageAction, run: ActionRun, out: PageActionsOutcome, count: (n: number, i: number) => void): Promise<void> {
  const { page } = run.stage;
  switch (action.type) {
    case 'wait':
      if ('milliseconds' in action) {
        // No timer outlives the job: a wait longer than the budget sleeps what is left, then times out.
        const left = run.left();
        await run.step(sleep(Math.min(action.milliseconds, left)));
        if (action.milliseconds > left) throw run.timeout();
        return;
      }
      return run.visible(action.selector);
    case 'click': {
      const found = await run.matched(action.selector);
      const targets = action.all ? Array.from({ length: Math.min(await found.count(), MAX_CLICK_ALL) }, (_, k) => found.nth(k)) : [found.first()];
      for (const target of targets) {
        await run.step(target.click({ timeout: run.left(CLICK_WAIT_MS) })).catch((error: unknown) => {
          if ((error as Error).name !== 'TimeoutError') throw error;
          throw failed(`actions.${run.index}.selector: the element matching "${action.selector}" could not be clicked (hidden, disabled or covered)`);
        });
      }
      return run.settle();
    }
    case 'write':
      return run.step(page.keyboard.type(action.text));
    case 'press':
      await run.step(page.keyboard.press(action.key)).catch((error: unknown) => {
        if (/Unknown key/i.test((error as Error).message)) throw failed(`actions.${run.index}.key: "${action.key}" is not a key name (Enter, Tab, ArrowDown, Control+A, …)`);
        throw error;
      });
      return run.settle();
    case 'scroll':
      if (action.selector !== undefined) await run.matched(action.selector);
      await run.step(
        page.evaluate(
          ([selector, sign]) => {
            const element = selector === null ? null : document.querySelector(selector);
            if (element) element.scrollBy(0, sign * element.clientHeight);
            else window.scrollBy(0, sign * window.innerHeight);
          },
          [action.selector ?? null, action.direction === 'up' ? -1 : 1] as const,
        ),
      );
      return run.settle();
    case 'screenshot': {
      const original = page.viewportSize();
      if (action.viewport) await run.step(page.setViewportSize(action.viewport));
      try {
        const png = await run.step(page.screenshot({ type: 'png', fullPage: action.fullPage, timeout: run.left() }));
        count(png.length, run.index);
        out.screenshots.push(png.toString('base64'));
      } finally {
        if (action.viewport && original) await page.setViewportSize(original).catch(() => undefined);
      }
      return;
    }
    case 'scrape': {
      const html = await run.step(run.stage.capture());
      count(Buffer.byteLength(html), run.index);
      out.scrapes.push({ url: page.url(), html });
      return;
    }
    case 'pdf': {
      // Printing lays the page out for paper; the page itself is left as it was for the actions after.
      const pdf = await run.step(page.pdf({ format: action.format, landscape: action.landscape, scale: action.scale, printBackground: true }));
      count(pdf.length, run.index);
      (out.pdfs ??= []).push(pdf.toString('base64'));
      return;
    }
    case 'executeJavascript': {
      const returned = await run.step(scriptReturn(page, action.script, run.index));
      count(Buffer.byteLength(JSON.stringify(returned.value) ?? ''), run.index);
      out.javascriptReturns.push(returned);
      return run.settle();
    }
  }
}

/** One action's run: its steps bounded by the stage's deadline, its failures named after it. */
class ActionRun {
  constructor(
    readonly stage: ActionStage,
    readonly index: number,
    private readonly type: string,
  ) {}

  /** What is left of the budget (ms, at least 1), capped at `cap`. */
  left(cap = Number.POSITIVE_INFINITY): number {
    return Math.max(1, Math.min(cap, this.stage.until - performance.now()));
  }

  timeout(): Error {
    return renderTimeout(`actions.${this.index} (${this.type}) did not finish within the page's timeout`);
  }

  step<T>(work: Promise<T>): Promise<T> {
    return bounded(work, this.stage.until, () => this.timeout(), this.stage.failure);
  }

  settle(): Promise<void> {
    return this.step(this.stage.settle(Math.min(performance.now() + SETTLE_CAP_MS, this.stage.until)));
  }

  /** The elements `selector` matches, once there is one (waiting a little for it), or ACTION_FAILED. */
  async matched(selector: string): Promise<Locator> {
    const found = this.stage.page.locator(`css=${selector}`);
    await this.step(found.first().waitFor({ state: 'attached', timeout: this.left(ELEMENT_WAIT_MS) })).catch((error: unknown) => {
      if ((error as Error).name !== 'TimeoutError' && !(error instanceof TrawlError && error.code === ErrorCode.TIMEOUT)) throw error;
      throw failed(`actions.${this.index}.selector: no element matches "${selector}"`);
    });
    return found;
  }

  /** Waits for an element matching `selector` to be visible, as long as the budget lasts. */
  async visible(selector: string): Promise<void> {
    const found = this.stage.page.locator(`css=${selector}`).first();
    await this.step(found.waitFor({ state: 'visible', timeout: this.left() })).catch((error: unknown) => {
      if ((error as Error).name !== 'TimeoutError' && !(error instanceof TrawlError && error.code === ErrorCode.TIMEOUT)) throw error;
      throw failed(`actions.${this.index}.selector: no visible element matched "${selector}" within the page's timeout`);
    });
  }

  /** A failure of this action as the job's error: what the page did wrong is ACTION_FAILED, the rest passes through. */
  explain(error: unknown, selector: string | undefined): unknown {
    if (error instanceof TrawlError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (GONE.test(message)) return error;
    if (selector !== undefined && BAD_SELECTOR.test(message)) return failed(`actions.${this.index}.selector: "${selector}" is not a valid CSS selector`);
    return failed(`actions.${this.index} (${this.type}) failed: ${firstLine(error)}`);
  }
}

/**
 * A script's return value as `{ type, value }`: `type` is its `typeof`, `value` its JSON (null when it has none, e.g.
 * a function or undefined). The script is run as an expression (`document.title`) or, when it does not parse as one
 * (`return …`, statements with `await`), as the body of an async function; a returned promise is awaited. The value
 * stays in the page until its JSON is known to be within MAX_SCRIPT_RETURN_BYTES.
 */
async function scriptReturn(page: Page, script: string, index: number): Promise<{ type: string; value: unknown }> {
  const handle = await page.evaluateHandle(script).catch((error: unknown) => {
    if (!/SyntaxError|Illegal return|await is only valid/i.test((error as Error).message)) throw error;
    return page.evaluateHandle(`(async () => {\n${script}\n})()`);
  });
  try {
    const shaped = await handle.evaluate((value: unknown, max: number) => {
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        json = undefined;
      }
      const size = json === undefined ? 0 : new TextEncoder().encode(json).length;
      if (size > max) return { type: typeof value, size, value: null as unknown };
      return { type: typeof value, size, value: json === undefined ? null : (JSON.parse(json) as unknown) };
    }, MAX_SCRIPT_RETURN_BYTES);
    // Measured again here: the page's own JSON or TextEncoder may not be what they claim.
    const size = Math.max(shaped.size, Buffer.byteLength(JSON.stringify(shaped.value) ?? ''));
    if (size > MAX_SCRIPT_RETURN_BYTES) throw failed(`actions.${index}.script: its return value is ${size} bytes as JSON, more than the ${MAX_SCRIPT_RETURN_BYTES} allowed`);
    return { type: shaped.type, value: shaped.value };
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
