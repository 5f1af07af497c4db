/**
 * `trawl serp:parse --engine google|bing|duckduckgo|searxng [--type news] [--page N] [--num N] [--shape serp|web]
 * [--status N] <file.html[.gz]>`: parses a saved result page and prints the endpoint's JSON (Google → `/serp-search`
 * body; the others, or `--shape web` → the `/search` page object exactly as the endpoint puts it under
 * `pages["N"]`), or `{"verdict": …}` when the page is a block or no-results page. `--status` is the HTTP status the
 * page came with (a DuckDuckGo 202 is a block). Exit codes: 0 parsed (any verdict), 1 usage or I/O error.
 */
import { readDocumentFile } from '#fetch/document-file.js';
import { createSearchProviders } from '#serp';
import type { SerpType } from '#serp';

const USAGE = 'usage: serp:parse --engine google|bing|duckduckgo|searxng [--type search|news|images|places|shopping] '
  + '[--page N] [--num N] [--shape serp|web] [--status N] <file.html[.gz]>\n';
const TYPES: SerpType[] = ['search', 'news', 'images', 'places', 'shopping'];

interface Args {
  engine: string;
  type: SerpType;
  page: number;
  num: number;
  shape?: 'serp' | 'web';
  status?: number;
  file: string;
}

function parseArgs(args: string[]): Args | string {
  const out: Partial<Args> = { type: 'search', page: 1, num: 10 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--engine') out.engine = next();
      else if (a === '--type') out.type = next() as SerpType;
      else if (a === '--page') out.page = Number(next());
      else if (a === '--num') out.num = Number(next());
      else if (a === '--shape') out.shape = next() as 'serp' | 'web';
      else if (a === '--status') out.status = Number(next());
      else if (a === '--help' || a === '-h') return '';
      else if (a.startsWith('--')) return `unknown option ${a}`;
      else if (!out.file) out.file = a;
      else return `unexpected argument ${a}`;
    } catch (e) {
      return (e as Error).message;
    }
  }
  if (!out.engine) return 'missing --engine';
  if (!out.file) return 'missing file';
  if (!TYPES.includes(out.type as SerpType)) return `unknown --type ${out.type}`;
  if (!Number.isInteger(out.page) || (out.page as number) < 1) return '--page must be a positive integer';
  if (!Number.isInteger(out.num) || (out.num as number) < 1 || (out.num as number) > 100) return '--num must be 1..100';
  if (out.shape && out.shape !== 'serp' && out.shape !== 'web') return '--shape must be serp or web';
  if (out.status !== undefined && !(Number.isInteger(out.status) && out.status >= 100 && out.status <= 599)) return '--status must be an HTTP status';
  return out as Args;
}

export async function runSerpParseCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(parsed ? `serp:parse: ${parsed}\n${USAGE}` : USAGE);
    return parsed ? 1 : 0;
  }
  const engines = createSearchProviders({
    googleBaseUrl: 'http://127.0.0.1/', bingBaseUrl: 'http://127.0.0.1/', duckduckgoBaseUrl: 'http://127.0.0.1/', searxngBaseUrl: 'http://127.0.0.1/',
  });
  const engine = engines[parsed.engine];
  if (!engine) {
    io.stderr.write(`serp:parse: unknown engine ${parsed.engine}\n${USAGE}`);
    return 1;
  }
  let body: string;
  try {
    body = (await readDocumentFile(parsed.file)).text;
  } catch (e) {
    io.stderr.write(`serp:parse: cannot read ${parsed.file}: ${(e as Error).message}\n`);
    return 1;
  }
  const shape = parsed.shape ?? (engine.parseSerp && parsed.engine === 'google' ? 'serp' : 'web');
  let output: unknown;
  if (shape === 'serp' && engine.parseSerp) {
    const { verdict, result } = engine.parseSerp(body, { q: '', gl: 'us', hl: 'en', page: parsed.page, num: parsed.num, type: parsed.type });
    output = verdict.kind === 'ok' && result ? result : { verdict, ...(result ? { partial: result } : {}) };
  } else if (engine.parseSearchPage) {
    const { verdict, page } = engine.parseSearchPage(body, { query: '', page: parsed.page, count: parsed.num }, { status: parsed.status });
    output = verdict.kind === 'ok' && page ? page : { verdict };
  } else {
    io.stderr.write(`serp:parse: engine ${parsed.engine} cannot produce the ${shape} shape\n`);
    return 1;
  }
  io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  return 0;
}
