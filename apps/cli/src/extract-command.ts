/**
 * `trawl extract <file-or-url> [--format markdown|enhanced_html|page_text|json] [--converter mdream|turndown]
 * [--url <final-url>]`: runs the format pipeline on a local file (optionally gzip-compressed), a file: URL or an
 * http(s) URL (fetched with a timeout and a size cap) and prints the chosen format; json prints all formats
 * plus metadata. A file is read at `--url`, else at the address it declares (canonical link, og:url, the site its links name: see pageAddress).
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';
import type { OutputFormats } from '#contracts';
import { decodeHtml, formatPage, type MarkdownConverterName } from '#extraction';

const FORMATS = ['markdown', 'enhanced_html', 'page_text', 'json'] as const;
type CliFormat = (typeof FORMATS)[number];
const FETCH_TIMEOUT_MS = 30_000;
const MAX_BYTES = 20 * 1024 * 1024;

const USAGE =
  'usage: extract <file-or-url> [--format markdown|enhanced_html|page_text|json] [--converter mdream|turndown] [--url <final-url>]\n';

interface Parsed {
  source: string;
  format: CliFormat;
  converter: MarkdownConverterName;
  url?: string;
}

function parseArgs(args: string[]): Parsed | string {
  let source: string | undefined;
  let format: CliFormat = 'markdown';
  let converter: MarkdownConverterName = 'mdream';
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (flag === '--format' || flag === '-f') {
      const v = value();
      if (!FORMATS.includes(v as CliFormat)) return `unknown format: ${v ?? '(missing)'}`;
      format = v as CliFormat;
    } else if (flag === '--converter') {
      const v = value();
      if (v !== 'mdream' && v !== 'turndown') return `unknown converter: ${v ?? '(missing)'}`;
      converter = v;
    } else if (flag === '--url') {
      url = value();
      if (!url) return 'missing value for --url';
    } else if (flag === '--help' || flag === '-h') {
      return '';
    } else if (a.startsWith('-') && a !== '-') {
      return `unknown option: ${a}`;
    } else if (source === undefined) {
      source = a;
    } else {
      return `unexpected argument: ${a}`;
    }
  }
  if (!source) return 'missing <file-or-url>';
  return { source, format, converter, url };
}

function gunzipIfNeeded(bytes: Uint8Array): Uint8Array {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

async function fetchHttp(url: string): Promise<{ bytes: Uint8Array; contentType?: string; finalUrl: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_BYTES) throw new Error(`response larger than ${MAX_BYTES} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_BYTES) throw new Error(`response larger than ${MAX_BYTES} bytes`);
      chunks.push(chunk);
    }
  }
  return { bytes: Buffer.concat(chunks), contentType: res.headers.get('content-type') ?? undefined, finalUrl: res.url || url };
}

async function load(source: string): Promise<{ bytes: Uint8Array; contentType?: string; finalUrl: string }> {
  if (/^https?:\/\//i.test(source)) return fetchHttp(source);
  let file: string;
  if (/^file:/i.test(source)) file = fileURLToPath(source);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) throw new Error(`unsupported URL scheme: ${source}`);
  else file = path.resolve(source);
  const raw = await readFile(file);
  return { bytes: gunzipIfNeeded(raw), finalUrl: pathToFileURL(file).href };
}

/** Run the extract command; returns the process exit code (0 ok, 1 failure, 2 usage error). */
export async function runExtractCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    if (parsed) io.stderr.write(`extract: ${parsed}\n`);
    io.stderr.write(USAGE);
    return parsed ? 2 : 0;
  }
  let loaded: Awaited<ReturnType<typeof load>>;
  try {
    loaded = await load(parsed.source);
  } catch (err) {
    io.stderr.write(`extract: cannot read ${parsed.source}: ${(err as Error).message}\n`);
    return 1;
  }
  const { text, charset } = decodeHtml(loaded.bytes, loaded.contentType);
  const all = parsed.format === 'json';
  const formats: OutputFormats = {
    raw_html: false,
    enhanced_html: all || parsed.format === 'enhanced_html',
    markdown: all || parsed.format === 'markdown',
    page_text: all || parsed.format === 'page_text',
  };
  const page = formatPage(text, { url: parsed.url ?? loaded.finalUrl, formats, markdownConverter: parsed.converter });
  if (page.unextractable) {
    io.stderr.write(`${page.unextractable}\n`);
    return 1;
  }
  let out: string;
  if (all) out = JSON.stringify({ url: parsed.url ?? loaded.finalUrl, charset, ...page }, null, 2);
  else out = page[parsed.format as Exclude<CliFormat, 'json'>] ?? '';
  io.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  return 0;
}
