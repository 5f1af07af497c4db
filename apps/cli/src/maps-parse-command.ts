/**
 * `trawl maps:parse --provider google|osm [--place-id ID] [--cid N] <payload-file[.gz]>`: parses a saved Google Maps
 * payload (`)]}'` guard optional) or Nominatim JSON response and prints `{"serp_maps_results": […]}`, plus
 * `"verdict"` when it is not ok (block page, unreadable payload, lookup without that place). `--place-id` / `--cid`
 * parse the file as the answer to that lookup. Exit codes: 0 parsed (any verdict), 1 usage or I/O error.
 */
import { readDocumentFile } from '#fetch/document-file.js';
import { createMapsProvider, type MapsProviderName } from '#serp/maps/index.js';
import type { MapsParams } from '#serp/maps/types.js';

const USAGE = 'usage: maps:parse --provider google|osm [--place-id ID] [--cid N] <payload-file[.gz]>\n';
const PROVIDERS: MapsProviderName[] = ['google', 'osm'];

interface Args {
  provider: MapsProviderName;
  placeId?: string;
  cid?: string;
  file: string;
}

function parseArgs(args: string[]): Args | string {
  const out: Partial<Args> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--provider') out.provider = next() as MapsProviderName;
      else if (a === '--place-id') out.placeId = next();
      else if (a === '--cid') out.cid = next();
      else if (a === '--help' || a === '-h') return '';
      else if (a.startsWith('--')) return `unknown option ${a}`;
      else if (!out.file) out.file = a;
      else return `unexpected argument ${a}`;
    } catch (e) {
      return (e as Error).message;
    }
  }
  if (!out.provider) return 'missing --provider';
  if (!PROVIDERS.includes(out.provider)) return `unknown --provider ${out.provider}`;
  if (out.cid !== undefined && !/^\d+$/.test(out.cid)) return '--cid must be digits only';
  if (!out.file) return 'missing file';
  return out as Args;
}

export async function runMapsParseCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(parsed ? `maps:parse: ${parsed}\n${USAGE}` : USAGE);
    return parsed ? 1 : 0;
  }
  let body: string;
  try {
    body = (await readDocumentFile(parsed.file)).text;
  } catch (e) {
    io.stderr.write(`maps:parse: cannot read ${parsed.file}: ${(e as Error).message}\n`);
    return 1;
  }
  const provider = createMapsProvider({ provider: parsed.provider, googleBaseUrl: 'http://127.0.0.1/', nominatimBaseUrl: 'http://127.0.0.1/' });
  const query: MapsParams = { q: '', ...(parsed.placeId ? { placeId: parsed.placeId } : {}), ...(parsed.cid ? { cid: parsed.cid } : {}) };
  const { verdict, places } = provider.parse(body, query);
  const output = verdict.kind === 'ok' ? { serp_maps_results: places } : { serp_maps_results: places, verdict };
  io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  return 0;
}
