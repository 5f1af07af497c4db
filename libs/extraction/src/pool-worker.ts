/**
 * Worker-thread entry of ExtractionPool: runs formatPage (or formatDocument, for a PDF or DOCX) for messages from the
 * pool. Tasks run one after another, in the order they came — a document's parse awaits, and the pool matches each
 * result to the oldest task it sent. Kept tiny so the worker loads only the pipeline.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TrawlError, type FetchedDocument, type FormattedPage } from '#contracts';
import { formatDocument, type DocumentLimits } from './documents/format-document.js';
import { formatPage, type FormatOptions } from './format-page.js';
import type { MarkdownConverterName } from './markdown/converters.js';

interface Task {
  id: number;
  html: string;
  options: FormatOptions;
  document?: FetchedDocument;
  limits?: DocumentLimits;
}

const defaults = (workerData ?? {}) as { markdownConverter?: MarkdownConverterName };
let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (task: Task) => {
  queue = queue.then(() => run(task));
});

async function run(task: Task): Promise<void> {
  const options = { ...task.options, markdownConverter: task.options.markdownConverter ?? defaults.markdownConverter };
  if (!task.document || !task.limits) {
    parentPort?.postMessage({ id: task.id, page: formatPage(task.html, options) });
    return;
  }
  try {
    const page: FormattedPage = await formatDocument(task.document, options, task.limits);
    parentPort?.postMessage({ id: task.id, page });
  } catch (error) {
    parentPort?.postMessage({ id: task.id, error: TrawlError.from(error).toJSON() });
  }
}
