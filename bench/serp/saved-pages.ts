/**
 * Google result pages saved by someone else, with no expected parse: a triage of where the organic reader may be
 * wrong. Each page's organic links are set beside a deliberately crude count that shares none of the reader's
 * rules — every link titled by an `<h3>` (inside the link, or around it) out of the search, outside the question
 * boxes, the knowledge panel, the right column and the ads — and the pages where the two lists differ (a link only
 * one side has, or another order) are printed for a person to look at. Agreement is not proof (both can be wrong
 * alike) and a difference is not an error (a carousel card titled by an `<h3>` is no result); it says where to look.
 *
 * Run: `npm run build:server && node dist/bench/serp/saved-pages.js --dir DIR [--verbose]` (DIR: `.html` or
 * `.html.gz` files, read recursively; pages without a Google search form are skipped).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { attr, closest, hasAnyClass, loadDom, parentEl, type Element } from '#serp/dom/serp-dom.js';
import { parseGoogleSerp } from '#serp/google/google-provider.js';
import { unwrapGoogleLink } from '#serp/util/urls.js';
import { readPage } from './conformance/corpus.js';

const args = process.argv.slice(2);
const dir = args.includes('--dir') ? args[args.indexOf('--dir') + 1] : undefined;
const verbose = args.includes('--verbose');
if (!dir) {
  console.error('usage: node dist/bench/serp/saved-pages.js --dir DIR [--verbose]');
  process.exit(2);
}

function filesUnder(d: string): string[] {
  return readdirSync(d).sort().flatMap((f) => {
    const p = path.join(d, f);
    if (statSync(p).isDirectory()) return filesUnder(p);
    return /\.html?(\.gz)?$/i.test(f) ? [p] : [];
  });
}

const NOT_RESULTS = ['related-question-pair', 'kno-kp', 'knowledge-panel'];
const NOT_RESULT_IDS = new Set(['rhs', 'tads', 'tadsb', 'bottomads', 'tvcap']);

/** The crude list: h3-titled links out of the search, outside question boxes, the knowledge panel, ads and the right column. */
function headingLinks(html: string): string[] {
  const dom = loadDom(html);
  const out: string[] = [];
  for (const h3 of dom.byTag('h3')) {
    const a = closest(h3, (e) => e.name === 'a') ?? [...(h3.children as Element[])].find((c) => c.type === 'tag' && c.name === 'a');
    if (!a) continue;
    const link = unwrapGoogleLink(attr(a, 'href'));
    if (!/^https?:\/\//i.test(link) || /^https?:\/\/(www\.)?google\.[a-z.]+\/(search|url)\b/i.test(link)) continue;
    let aside = false;
    for (let e: Element | null = a; e && !aside; e = parentEl(e)) {
      aside = hasAnyClass(e, NOT_RESULTS) || NOT_RESULT_IDS.has(e.attribs.id ?? '') || e.attribs.role === 'complementary';
    }
    if (!aside && !out.includes(link)) out.push(link);
  }
  return out;
}

let pages = 0;
let agree = 0;
let blocked = 0;
const counts: number[] = [];
for (const file of filesUnder(dir)) {
  const html = readPage(file);
  if (!/<form[^>]*action="\/search"|name="q"/i.test(html)) continue;
  pages++;
  const { verdict, result } = parseGoogleSerp(html, { type: 'search', page: 1, num: 10 });
  if (verdict.kind === 'blocked') blocked++;
  const ours = (result?.serp_search_results ?? []).map((r) => ('link' in r ? String(r.link) : ''));
  counts.push(ours.length);
  const crude = headingLinks(html);
  const onlyOurs = ours.filter((u) => !crude.includes(u));
  const onlyCrude = crude.filter((u) => !ours.includes(u));
  const shared = ours.filter((u) => crude.includes(u));
  const reordered = shared.join('\n') !== crude.filter((u) => ours.includes(u)).join('\n');
  if (!onlyOurs.length && !onlyCrude.length && !reordered) {
    agree++;
    continue;
  }
  console.log(`${path.relative(dir, file)}: ${verdict.kind}, ${ours.length} results, ${crude.length} heading links${reordered ? ', in another order' : ''}`);
  if (verbose) {
    for (const u of onlyOurs) console.log(`   only the reader: ${u}`);
    for (const u of onlyCrude) console.log(`   only the heading links: ${u}`);
  }
}
counts.sort((a, b) => a - b);
console.log(`\n${pages} Google pages: ${agree} agree with the heading links, ${pages - agree} to look at; ${blocked} reported blocked; `
  + `results per page min ${counts[0] ?? 0}, median ${counts[Math.floor(counts.length / 2)] ?? 0}, max ${counts[counts.length - 1] ?? 0}`);
