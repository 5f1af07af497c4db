/**
 * The page-engine table: which transports can fetch a page, what each can do, and the queue its workers consume.
 * The gateway picks a row from what a request needs (`selectEngine`); a worker kind hosts the row of its queue.
 * Adding an engine (e.g. headed Chromium behind residential proxies) is a new row here plus its implementation in
 * `engine-factories.ts`. Rows are ordered cheapest first: the first row that covers every need wins.
 */
import { ErrorCode } from './error-codes.js';
import { QueueName, type SearchProviderName } from './jobs.js';
import type { PageActionsOutcome } from './page-actions.js';
import { TrawlError } from './trawl-error.js';

export const EngineId = {
  http: 'http',
  chromium: 'chromium',
  headful: 'headful',
} as const;
export type EngineId = (typeof EngineId)[keyof typeof EngineId];

export interface EngineCapabilities {
  /** Runs the page's JavaScript (a browser). */
  renders: boolean;
  /** Can capture a PNG of the viewport or the whole page. */
  screenshots: boolean;
  /** A headed browser on a real display (for sites that detect headless ones). */
  headful: boolean;
  /** Routes through residential proxies. */
  residentialProxy: boolean;
}

export interface EngineRow {
  id: EngineId;
  capabilities: EngineCapabilities;
  /** The queue whose workers host this engine. */
  queue: QueueName;
  /** The worker kind reported by /health for this queue. */
  workerKind: string;
}

export const ENGINE_TABLE: readonly EngineRow[] = [
  {
    id: EngineId.http,
    capabilities: { renders: false, screenshots: false, headful: false, residentialProxy: false },
    queue: QueueName.http,
    workerKind: 'worker-http',
  },
  {
    id: EngineId.chromium,
    capabilities: { renders: true, screenshots: true, headful: false, residentialProxy: false },
    queue: QueueName.render,
    workerKind: 'worker-render',
  },
  {
    id: EngineId.headful,
    capabilities: { renders: true, screenshots: true, headful: true, residentialProxy: true },
    queue: QueueName.headful,
    workerKind: 'worker-headful',
  },
];

export type EngineNeeds = Partial<EngineCapabilities>;

/** The cheapest engine that has every capability asked for. */
export function selectEngine(needs: EngineNeeds, table: readonly EngineRow[] = ENGINE_TABLE): EngineRow {
  const wanted = (Object.keys(needs) as (keyof EngineCapabilities)[]).filter((k) => needs[k]);
  const row = table.find((r) => wanted.every((k) => r.capabilities[k]));
  if (!row) throw new TrawlError(ErrorCode.SERVICE_UNAVAILABLE, `No engine can ${wanted.join(' + ')}`, 'permanent');
  return row;
}

export function engineRow(id: EngineId, table: readonly EngineRow[] = ENGINE_TABLE): EngineRow {
  const row = table.find((r) => r.id === id);
  if (!row) throw new Error(`Unknown engine ${id}`);
  return row;
}

/**
 * Which engine fetches a search provider's result pages: Google has needed JavaScript since 2025 (rendered, unless
 * GOOGLE_TRANSPORT=http points it at an upstream serving plain HTML); the others answer plain HTML or JSON.
 */
export function searchEngineNeeds(provider: SearchProviderName, googleTransport: 'http' | 'render'): EngineNeeds {
  return { renders: provider === 'google' && googleTransport === 'render' };
}

/** What an engine hands back for one page: the document as fetched or rendered, and what it knows about it. */
export interface FetchedPage {
  finalUrl: string;
  status: number;
  html: string;
  /** Base64 PNG when a screenshot was asked for. */
  screenshot?: string;
  /** Browser engines: what the request's actions produced. */
  actions?: PageActionsOutcome;
  /** Response headers of the main document, where the engine has them (block detection reads them). */
  headers?: Record<string, string>;
  /** The undecoded bytes, when a raw fetch asked for them (`html` is then empty). */
  body?: Uint8Array;
  /** A redirect answered rather than followed (`followRedirects: false`): its absolute target. */
  location?: string;
  /** A PDF or DOCX the crawl fetched (`html` is then empty): parsed by the extraction threads, not the HTML pipeline. */
  document?: FetchedDocument;
}

/** The document formats a crawl reads besides HTML. */
export type DocumentKind = 'pdf' | 'docx';

export interface FetchedDocument {
  kind: DocumentKind;
  /** The decompressed body, within CRAWL_MAX_BYTES. */
  bytes: Uint8Array;
}
