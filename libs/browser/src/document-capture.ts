/**
 * The rendered document's HTML and element count in one evaluation, in an isolated world of our own over the job's
 * CDP session. Why not `page.content()`: Playwright 1.65 injects its whole injected script (~340 KB) into every new
 * document to serialize it — sent over the pipe and compiled by the renderer for each page — and `page.evaluate`
 * injects its 13 KB utility script; this sends a few hundred bytes. The isolated world also keeps the page's own
 * scripts from tampering with what is read (an overridden getter or XMLSerializer in the page's world is not ours).
 */
import type { CDPSession } from 'playwright-core';

export interface CapturedDocument {
  /** Elements in the document. */
  nodes: number;
  /** Doctype + `<html>…</html>` as the DOM is now; absent when `nodes` exceeds the cap it was asked with. */
  html?: string;
}

const WORLD = 'trawl-capture';

/** Counts first: past `maxNodes` the document is not serialized at all (a huge DOM would cost more to send). */
function captureExpression(maxNodes: number): string {
  return `(() => {
    const nodes = document.getElementsByTagName('*').length;
    if (nodes > ${Math.floor(maxNodes)}) return { nodes };
    let html = '';
    if (document.doctype) html = new XMLSerializer().serializeToString(document.doctype);
    if (document.documentElement) html += document.documentElement.outerHTML;
    return { nodes, html };
  })()`;
}

/** Thrown (message) when the document changed under the evaluation: a client-side navigation; the caller retries. */
export const NAVIGATED = /Execution context was destroyed|Cannot find context with specified id|navigating and changing the content/;

/** `frameId`: the page's main frame (CDP id; the same across the page's navigations). */
export async function captureDocument(session: CDPSession, frameId: string, maxNodes: number): Promise<CapturedDocument> {
  const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId, worldName: WORLD });
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: captureExpression(maxNodes),
    contextId: executionContextId,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`capturing the document failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value as CapturedDocument;
}
