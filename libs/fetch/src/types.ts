/**
 * The HttpClient extension point: one method that fetches a text document with every safety bound applied.
 * Failures are thrown as TrawlError with a per-URL code; HTTP error statuses are results, not failures.
 */
import type { DeviceKind, FetchedDocument, ProxyInfo } from '#contracts';

export interface FetchOptions {
  url: string;
  /** Budget for the whole fetch: DNS, connect, every redirect hop and the body. */
  timeoutMs: number;
  /** Cap on the decompressed body → TrawlError TOO_LARGE. */
  maxBytes: number;
  /** Redirects to follow before TOO_MANY_REDIRECTS (default 10; 0 refuses any redirect). */
  maxRedirects?: number;
  /** Device whose user agent and navigation headers are sent (default 'desktop'). */
  device?: DeviceKind;
  /** Else derived from the proxy's country, or 'en-US,en;q=0.9'. */
  acceptLanguage?: string;
  /** Route through this forward proxy (CONNECT for https, absolute-form for http). */
  proxy?: ProxyInfo | null;
  /** Extra request headers (override the device's); cookie/authorization are not forwarded across origins. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Default GET. A POST sends `body` (its content-type goes in `headers`); a 301/302/303 answer turns it into a GET. */
  method?: 'GET' | 'POST';
  body?: string;
  /**
   * Any content type, undecoded: the decompressed bytes come back in `raw` (and `body` is empty). For resources that
   * are not pages — robots.txt, sitemaps (gzipped ones included) — never for the format pipeline.
   */
  raw?: boolean;
  /** PDF and DOCX bodies are read (undecoded, into `document`) instead of refused as UNSUPPORTED_CONTENT: page crawls. */
  documents?: boolean;
  /**
   * false: a redirect is not followed but answered, its target (absolute) in `location` — for callers that check each
   * hop themselves (a site crawl consults robots.txt and its scope before requesting a target).
   */
  followRedirects?: boolean;
}

export interface FetchResult {
  /** The requested URL, normalised. */
  url: string;
  /** The URL of the response after redirects. */
  finalUrl: string;
  status: number;
  /** Response headers, lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Lower-case MIME type without parameters ('' when the server sent none). */
  contentType: string;
  /** The encoding used to decode `body` (WHATWG name, e.g. 'utf-8', 'windows-1252', 'shift_jis'). */
  charset: string;
  /** The decoded text. */
  body: string;
  /** Decompressed byte length of the body. */
  bytes: number;
  /** The decompressed bytes, when `raw` was asked for. */
  raw?: Buffer;
  /** A PDF or DOCX body, when `documents` was asked for (`body` is then empty). */
  document?: FetchedDocument;
  /** With `followRedirects: false`, the redirect's target (absolute, fragment dropped). */
  location?: string;
  /** Every redirect target in order (absolute); the last one equals finalUrl. */
  redirects: string[];
  timings: { totalMs: number };
}

export interface HttpClient {
  fetch(options: FetchOptions): Promise<FetchResult>;
  close(): Promise<void>;
}
