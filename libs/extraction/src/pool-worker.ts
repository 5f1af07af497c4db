/**
 * Worker-thread entry of ExtractionPool: runs formatPage for messages from the pool. Kept tiny so the worker
 * loads only the pipeline.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { formatPage, type FormatOptions } from './format-page.js';
import type { MarkdownConverterName } from './markdown/converters.js';

interface Task {
  id: number;
  html: string;
  options: FormatOptions;
}

const defaults = (workerData ?? {}) as { markdownConverter?: MarkdownConverterName };

parentPort?.on('message', (task: Task) => {
  const options = { ...task.options, markdownConverter: task.options.markdownConverter ?? defaults.markdownConverter };
  const page = formatPage(task.html, options);
  parentPort?.postMessage({ id: task.id, page });
});
