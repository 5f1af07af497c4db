/**
 * One render job on a shared browser, in a JobContext (fresh, warm or reset) or a tab of a SharedContext: apply the job's settings, navigate
 * until the response commits, wait for load and then network quiet (each capped), capture HTML and an optional
 * screenshot, then hand the context back (reset for the same account's next job, or closed). Every step races the
 * job deadline and the page/browser dying, so a page that never settles still yields what rendered and a crash
 * becomes a typed error instead of a hang.
 */
import type { CDPSession, Page, Request, Response } from 'playwright-core';
import { DEVICE_PROFILES, ErrorCode, TrawlError, type DeviceProfile, type PageAction, type PageActionsOutcome } from '#contracts';
import { bounded } from './bounded.js';
import { GUARD_HEADER } from './guard-proxy.js';
import { captureDocument, NAVIGATED } from './document-capture.js';
import type { BrowserLease, JobSettings, RenderSurface } from './job-context.js';
import { mainThreadCaughtUp } from './main-thread.js';
import { runActions } from './page-actions.js';
import { CAUGHT_UP_GRACE_MS } from './network-activity.js';
import { failedNavigation, fromGuardFailure, renderFailed, renderTimeout, toRenderError, type FailedNavigation } from './render-errors.js';
import type { RenderResult } from './render-types.js';

const LOAD_CAP = 'load cap';
/** Where Chromium shows its own error page ("This site can't be reached") after a main-frame navigation failed. */
const CHROME_ERROR_PAGE = 'chrome-error:';
/** The guard's own answers are one line of text; Chromium wraps it in a few dozen characters of markup. */
const GUARD_ANSWER_MAX_CHARS = 1_000;
/** The longest a quiet page's settle waits for its main thread to catch up after load (see mainThreadCaughtUp). */
const MAIN_THREAD_CAP_MS = 1_000;

export interface RenderJob extends JobSettings {
  /** Elements the loaded document may hold; the captured HTML is capped at maxResponseBytes. */
  maxDomNodes: number;
  url: URL;
  startedAt: number;
  deadline: number;
  screenshot: false | 'viewport' | 'full';
  networkIdleMs: number;
  /** The quiet window of a page that has started no request since load (see NetworkActivity.waitForQuiet). */
  loadQuietMs: number;
  settleCapMs: number;
  /** A wait after settling, before capture (RenderOptions.waitMs); 0 for none. */
  waitMs?: number;
  /** Run after the wait, before capture (RenderOptions.actions). */
  actions?: readonly PageAction[];
}

/** Time kept back at the end of the budget for capturing HTML (and the screenshot). */
function captureReserve(budgetMs: number, screenshot: boolean): number {
  // Serialising the DOM of a busy page takes a few hundred ms on a loaded machine; a full-page PNG much more.
  return screenshot ? Math.min(Math.max(budgetMs * 0.35, 800), 4_000) : Math.min(Math.max(budgetMs * 0.25, 400), 1_500);
}

/**
 * Where a job's page comes from and where it goes: `source` yields it (a reused or warm context, a tab of a shared
 * one, or one being opened for the job); `reopen` opens a fresh one when the first turns out dead (a warm spare
 * whose renderer died while waiting); `dispose` takes it afterwards, `reusable` being true only when the job ended
 * with a result (a failed job's context — crashed page, guard refusal, timeout mid-navigation — is never reused).
 */
export interface SurfaceSource<S extends RenderSurface> {
  source: Promise<S>;
  reopen: () => Promise<S>;
  dispose: (surface: S, reusable: boolean) => Promise<void>;
}

/**
 * Runs `job` on the surface `from.source` yields. The surface is always handed to `from.dispose` afterwards — or
 * closed, when the job gives up before it even resolved.
 */
export async function renderPage<S extends RenderSurface>(lease: BrowserLease, job: RenderJob, from: SurfaceSource<S>): Promise<RenderResult> {
  let reusable = false;
  let ctx: S | undefined;
  let pending = from.source;
  const noContext = (): Error => renderTimeout('The browser did not open a context within the job budget');
  try {
    ctx = await bounded(pending, job.deadline, noContext, lease.gone);
    if (!ctx.usable) {
      void ctx.close(lease); // a warm spare that died while waiting: open a fresh one
      ctx = undefined;
      pending = from.reopen();
      ctx = await bounded(pending, job.deadline, noContext, lease.gone);
    }
    const failure = Promise.race([ctx.crashed, ctx.capped, lease.gone]);
    failure.catch(() => undefined);
    await bounded(ctx.prepare(job), job.deadline, () => renderTimeout('The page could not be prepared within the job budget'), failure);
    ctx.lastNavigationHost = job.url.hostname;
    const result = await navigateAndCapture(ctx, job, failure);
    reusable = true;
    return result;
  } catch (error) {
    const pageCrashed = ctx?.pageCrashed ?? false;
    const browserGone = lease.isGone();
    throw toRenderError(error, {
      pageCrashed,
      browserGone,
      // Asked even when the browser does not look gone yet: Playwright's "closed" error can beat the disconnect event.
      outOfMemory: await lease.outOfMemory(pageCrashed),
      guardFailure: ctx ? ctx.guard.failureFor(ctx.lastNavigationHost) : undefined,
      proxied: job.proxy !== null,
    });
  } finally {
    if (ctx) await from.dispose(ctx, reusable && ctx.usable).catch(() => undefined);
    else pending.then((late) => late.close(lease)).catch(() => undefined);
  }
}

async function navigateAndCapture(surface: RenderSurface, job: RenderJob, failure: Promise<never>): Promise<RenderResult> {
  // The main frame's last failed navigation: one the page started itself (a script sending it to https, a meta
  // refresh) to an address that is refused or unreachable leaves an error page in the tab — Chromium's own, or the
  // guard's answer (recognised by its mark) — which is not the site's content (see failedNavigation).
  let failedNav: FailedNavigation | undefined;
  const mainFrame = (request: Request): boolean => request.isNavigationRequest() && request.frame() === surface.page.mainFrame();
  const onFailed = (request: Request): void => {
    const errorText = request.failure()?.errorText ?? '';
    // An aborted navigation was superseded (by the next one, or by the error page itself): not why the page failed.
    if (mainFrame(request) && !errorText.includes('ERR_ABORTED')) failedNav = { url: request.url(), errorText };
  };
  surface.page.on('requestfailed', onFailed);
  try {
    return await navigateAndCaptureWith(surface, job, failure, () => failedNav);
  } finally {
    surface.page.off('requestfailed', onFailed);
  }
}

async function navigateAndCaptureWith(
  surface: RenderSurface,
  job: RenderJob,
  failure: Promise<never>,
  lastFailedNavigation: () => FailedNavigation | undefined,
): Promise<RenderResult> {
  const { page, session, activity, guard } = surface;
  const navStart = performance.now();
  const response: Response | null = await bounded(
    page.goto(job.url.href, { waitUntil: 'commit', timeout: Math.max(1, job.deadline - navStart) }),
    job.deadline,
    () => renderTimeout('The navigation did not commit within the job budget'),
    failure,
  );
  const committedAt = performance.now();
  // Whether the document's own body has arrived whole (see below); subresources may keep loading.
  let documentArrived = response === null;
  response?.finished().then(() => (documentArrived = true), () => undefined);
  // The guard answered the main document itself (refused hop, unreachable upstream). The header alone is not
  // trusted — a site could send it — only together with the failure the guard recorded for that host.
  if (response?.headers()[GUARD_HEADER]) {
    const recorded = guard.failureFor(new URL(response.url()).hostname);
    if (recorded) throw fromGuardFailure(recorded);
  }

  const reserve = captureReserve(job.deadline - job.startedAt, job.screenshot !== false);
  const settleUntil = job.deadline - reserve;
  const loaded = await bounded(
    page.waitForLoadState('load', { timeout: Math.max(1, settleUntil - performance.now()) }).then(() => true),
    settleUntil,
    () => new Error(LOAD_CAP),
    failure,
  ).catch((error: Error) => {
    // Not loaded within the budget: capture what rendered. Anything else (crash, browser gone) fails the job.
    if (error.message === LOAD_CAP || error.name === 'TimeoutError') return false;
    throw error;
  });
  const loadedAt = performance.now();
  const quietUntil = Math.min(loadedAt + job.settleCapMs, settleUntil);
  // The brief window is also run on the page's clock (less the grace that follows it): under load the worker's 100 ms
  // can pass before the renderer has run a timer the page set at load for less.
  const pageWindowMs = job.loadQuietMs - CAUGHT_UP_GRACE_MS;
  if (loaded) activity.markLoaded(mainThreadCaughtUp(session, Math.min(MAIN_THREAD_CAP_MS, quietUntil - performance.now()), pageWindowMs));
  const networkQuiet = loaded
    ? await Promise.race([
        activity.waitForQuiet(job.networkIdleMs, quietUntil, job.loadQuietMs),
        failure,
      ])
    : false;
  const settledAt = performance.now();
  // The caller's own wait (a page known to fill in late), within what the capture leaves of the budget.
  const waitUntil = Math.min(settledAt + (job.waitMs ?? 0), settleUntil);
  if (waitUntil > settledAt) await Promise.race([new Promise((resolve) => setTimeout(resolve, waitUntil - settledAt)), failure]);

  // A document still arriving when the budget ends (a body dripping in) is a timeout, as over plain HTTP: what it
  // shows is a fragment of a page nobody finished sending, and it is not charged.
  if (!loaded && !documentArrived) throw renderTimeout('The page was still arriving when the URL budget ended');
  const capture = () => capturePage(surface, job, failure, lastFailedNavigation);
  let actions: PageActionsOutcome | undefined;
  if (job.actions?.length) {
    actions = await runActions(job.actions, {
      page,
      until: settleUntil,
      failure,
      capture,
      settle: async (until) => {
        await Promise.race([activity.waitForQuiet(job.networkIdleMs, until, job.loadQuietMs), failure]);
      },
    });
  }
  const html = await capture();
  let screenshot: string | undefined;
  if (job.screenshot) {
    const png = await bounded(
      page.screenshot({ type: 'png', fullPage: job.screenshot === 'full', timeout: Math.max(1, job.deadline - performance.now()) }),
      job.deadline,
      () => renderTimeout('The screenshot did not finish within the job budget'),
      failure,
    );
    screenshot = png.toString('base64');
  }
  const end = performance.now();
  return {
    url: job.url.href,
    finalUrl: page.url(),
    status: response?.status() ?? 0,
    html,
    ...(screenshot !== undefined ? { screenshot } : {}),
    ...(actions ? { actions } : {}),
    ...(response ? { headers: response.headers() } : {}),
    loaded,
    networkQuiet,
    timings: {
      totalMs: Math.round(end - job.startedAt),
      navigationMs: Math.round(committedAt - navStart),
      settleMs: Math.round(settledAt - committedAt),
      quietMs: loaded ? Math.round(settledAt - loadedAt) : 0,
    },
  };
}

/**
 * The document's HTML as it is now, refused when it is not the site's content: Chromium's error page or the guard's
 * answer after a navigation the page (or an action) started failed or was refused, or a document over the size limit.
 */
async function capturePage(surface: RenderSurface, job: RenderJob, failure: Promise<never>, lastFailedNavigation: () => FailedNavigation | undefined): Promise<string> {
  const { page, session, guard } = surface;
  const html = await captureHtml(page, session, surface.mainFrameId, job, failure);
  // Checked on what was captured: a navigation the page started may commit while it settles or during the capture.
  const lastFailed = lastFailedNavigation();
  if (page.url().startsWith(CHROME_ERROR_PAGE)) throw failedNavigation(lastFailed, guard);
  if (html.length < GUARD_ANSWER_MAX_CHARS && html.includes(guard.refusalMark)) {
    throw failedNavigation({ url: page.url(), errorText: lastFailed?.errorText ?? '' }, guard);
  }
  if (Buffer.byteLength(html) > job.maxResponseBytes) {
    throw new TrawlError(ErrorCode.TOO_LARGE, `The rendered document exceeds the ${job.maxResponseBytes}-byte limit`, 'permanent');
  }
  return html;
}

/**
 * The rendered document's HTML. A page that builds a huge DOM after load (script-generated, infinite scroll) costs
 * gigabytes in the renderer and again when serialized and extracted: it fails rather than being captured (the count
 * comes first, in the same evaluation). A client-side navigation swapping the document makes the evaluation fail:
 * wait for the new document and retry until the deadline.
 */
async function captureHtml(page: Page, session: CDPSession, frameId: string, job: RenderJob, failure: Promise<never>): Promise<string> {
  for (;;) {
    try {
      const captured = await bounded(captureDocument(session, frameId, job.maxDomNodes), job.deadline, () => renderFailed('the page stopped responding'), failure);
      if (captured.html === undefined) {
        throw new TrawlError(ErrorCode.TOO_LARGE, `The rendered document has ${captured.nodes} elements, more than the ${job.maxDomNodes} allowed`, 'permanent');
      }
      return captured.html;
    } catch (error) {
      const navigating = NAVIGATED.test((error as Error).message ?? '');
      if (!navigating || performance.now() >= job.deadline) throw error;
      await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, job.deadline - performance.now()) }).catch(() => undefined);
    }
  }
}

export function deviceProfile(kind: keyof typeof DEVICE_PROFILES | undefined): DeviceProfile {
  return DEVICE_PROFILES[kind ?? 'desktop'];
}
