/**
 * The SERP corpus (`../shared/corpus/serp`, read-only) as test cases: Google/Bing pages with reference parses,
 * serp-spider pages with YAML expectations, DuckDuckGo pages with hand-counted results, and the pages that must be
 * classified as no-results or blocked. Shared by the conformance specs and bench/serp/score.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export function corpusRoot(repoRoot: string): string | null {
  const dir = path.resolve(repoRoot, '../shared/corpus/serp');
  return existsSync(dir) ? dir : null;
}

export function readPage(file: string): string {
  const raw = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

export interface ReferenceCase {
  source: string; // e.g. "google desktop-2023"
  name: string;
  html: string;
  reference: string;
}

const REF_SUFFIX = '.serp-parser-HEAD-70dafd8.json';

function referenceCases(dir: string, source: string): ReferenceCase[] {
  const refDir = path.join(dir, 'reference-parse');
  if (!existsSync(refDir)) return [];
  return readdirSync(refDir).filter((f) => f.endsWith(REF_SUFFIX)).sort().map((f) => {
    const name = f.slice(0, -REF_SUFFIX.length);
    return { source, name, html: path.join(dir, 'html', `${name}.html.gz`), reference: path.join(refDir, f) };
  });
}

/** Google 2023 desktop, mobile and no-JS pages with reference parses. */
export function googleReferenceCases(root: string): ReferenceCase[] {
  const base = path.join(root, 'google/zlurad-serp-parser');
  return ['desktop-2023', 'mobile-2023', 'nojs-2023'].flatMap((gen) => referenceCases(path.join(base, gen), `google ${gen}`));
}

export function bingReferenceCases(root: string): ReferenceCase[] {
  return referenceCases(path.join(root, 'bing/zlurad-serp-parser/nojs-2021'), 'bing nojs-2021');
}

/**
 * DuckDuckGo organic results per page, counted by hand once (result links minus sponsored results, cross-checked
 * against the `r1-N` result ids where the page has them) and pinned here.
 */
export const DUCKDUCKGO_PINNED_COUNTS: Record<string, number> = {
  'NikolaiT-GoogleScraper/html/duckduckgo__csv_tests__2a30ac724331dbfd.html.gz': 23,
  'NikolaiT-GoogleScraper/html/duckduckgo__csv_tests__9079e67314b280f0.html.gz': 23,
  'NikolaiT-se-scraper/html/test_keyword_page1.html.gz': 10,
  'NikolaiT-se-scraper/html/test_keyword_page2.html.gz': 29,
  'NikolaiT-se-scraper/html/test_keyword_page3.html.gz': 77,
  'bisohns-search-engine-parser/html/duckduckgo__duckduckgo-Hello-synopsis__fbc376e.html.gz': 28,
  'bisohns-search-engine-parser/html/duckduckgo__duckduckgo-synopsis__3e39d1a.html.gz': 27,
  'bisohns-search-engine-parser/html/duckduckgo__duckduckgo-synopsis__40fb138.html.gz': 25,
};

/**
 * Bing organic results per page, counted by hand (the counts first pinned in test/serp/search-corpus.spec.ts, the
 * GoogleScraper "some words" page added): the results column's title cards; ads, answer cards, and the cards that
 * "People also ask" answers quote (same markup as a result, inside the question list) left out. Pinned as count +
 * first + last title. Every Bing result page of the corpus is here; its no-results pages are in VERDICT_CASES (the
 * folder's Bing home page, NikolaiT-se-scraper/html/index.html, is no result page).
 */
export const BING_PINNED_PAGES: Array<[file: string, count: number, first: string, last: string]> = [
  ["NikolaiT-GoogleScraper/html/bing__page_number_selector__bing_5.html.gz",10,"asdf | Know Your Meme","Asdf - Erfahrungen, Tests und Preise …"],
  ["NikolaiT-GoogleScraper/html/bing__csv_tests__8d42d88f9360553c.html.gz",10,"Spaces are missing between some words when you open a Word …","Difficult Words and Their Usages - English : The best …"],
  ["NikolaiT-GoogleScraper/html/bing__csv_tests__05ec16d55a2624eb.html.gz",10,"some - Thesaurus.com | Find Synonyms and Antonyms of Words …","Poe Stories: SOME WORDS WITH A MUMMY"],
  ["NikolaiT-se-scraper/html/test_keyword_page1.html.gz",6,"Keyword Tests | TestComplete Documentation","Outil d'Analyse de Site et Test SEO"],
  ["NikolaiT-se-scraper/html/test_keyword_page2.html.gz",10,"Keywords - TestLink","Keyword Density Checker | Online Keyword Density Tool Free"],
  ["NikolaiT-se-scraper/html/test_keyword_page3.html.gz",10,"Keyword Driven Testing | TestComplete","Take the SEO Expert Quiz - Moz"],
  ["bisohns-search-engine-parser/html/bing__bing-Hello-synopsis__fbc376e.html.gz",9,"HELLO! - Daily royal, celebrity, fashion, beauty ...","Hello - Wikipedia"],
  ["bisohns-search-engine-parser/html/bing__bing-synopsis__3e39d1a.html.gz",10,"Preach to the choir - Idioms by The Free Dictionary","[Easy Chair] | Preaching to The Choir, by Rebecca Solnit ..."],
  ["bisohns-search-engine-parser/html/bing__bing-synopsis__40fb138.html.gz",10,"Fake and free Bypass-on-Cookie, with CloudFlare edge cache ...","What does cf-cache-status: BYPASS mean? - Performance ..."],
  ["zlurad-serp-parser/nojs-2021/html/bing-nojs.html.gz",10,"Bing","SEM con Microsoft Advertising - Microsoft …"],
  ["zlurad-serp-parser/nojs-2021/html/bing50-nojs.html.gz",32,"Bing","ANINE BING (@aninebing) • Instagram photos and videos"],
  ["zlurad-serp-parser/nojs-2021/html/coffee-nojs.html.gz",4,"coffee - English-Spanish Dictionary - …","The best cafés and coffee shops in Barcelona"],
  ["zlurad-serp-parser/nojs-2021/html/domain-nojs.html.gz",4,"Website Domains Names & Hosting | Domain.com","Dominio de Internet - Wikipedia, la enciclopedia libre"],
  ["zlurad-serp-parser/nojs-2021/html/hotels-nojs.html.gz",4,"THE 10 BEST Hotels in New York City for 2021 (from $83 ...","LOS 10 MEJORES hoteles en Nueva York de 2021. …"],
  ["zlurad-serp-parser/nojs-2021/html/matrix-nojs.html.gz",5,"The Matrix - Wikipedia, la enciclopedia libre","The Matrix 4 - Wikipedia, la enciclopedia libre"],
];

export interface VerdictCase {
  engine: 'google' | 'bing' | 'duckduckgo';
  file: string;
  /** What the page is: an engine's no-results page, or a block (captcha / unusual traffic) page. */
  expect: 'no_results' | 'blocked';
}

/**
 * Every no-results, captcha and block page of the corpus. "Literal" pages (no results for the quoted query, then
 * results for it unquoted) count as no-results pages. DuckDuckGo's literal page is its JavaScript shell (no results
 * in the markup at all): it must not come out as "zero results found" — a blocked verdict is what it gets.
 */
export const VERDICT_CASES: VerdictCase[] = [
  { engine: 'google', file: 'google/zlurad-serp-parser/desktop-2023/html/no-results.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/zlurad-serp-parser/mobile-2023/html/no-results.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/zlurad-serp-parser/nojs-2023/html/no-results-nojs.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/zlurad-serp-parser/desktop-2021/html/no-results.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/zlurad-serp-parser/mobile-2021/html/no-results.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/zlurad-serp-parser/nojs-2021/html/no-results-nojs.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/NikolaiT-GoogleScraper/html/google__no_results__39140afc5638f5ec.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/NikolaiT-GoogleScraper/html/google__no_results__c51008dec65aa835.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/NikolaiT-GoogleScraper/html/google__no_results_literal__google.html.gz', expect: 'no_results' },
  { engine: 'google', file: 'google/zlurad-serp-parser/desktop-2023/html/recaptcha.html.gz', expect: 'blocked' },
  { engine: 'google', file: 'google/zlurad-serp-parser/desktop-2021/html/recaptcha.html.gz', expect: 'blocked' },
  { engine: 'google', file: 'google/serp-spider-search-engine-google/html/pages-evaluated/captcha.html.gz', expect: 'blocked' },
  { engine: 'bing', file: 'bing/zlurad-serp-parser/nojs-2021/html/no-results-nojs.html.gz', expect: 'no_results' },
  { engine: 'bing', file: 'bing/NikolaiT-GoogleScraper/html/bing__no_results__878f87bae36d3ff5.html.gz', expect: 'no_results' },
  { engine: 'bing', file: 'bing/NikolaiT-GoogleScraper/html/bing__no_results_literal__bing.html.gz', expect: 'no_results' },
  { engine: 'duckduckgo', file: 'duckduckgo/NikolaiT-GoogleScraper/html/duckduckgo__no_results__704b6369bdabdcc4.html.gz', expect: 'no_results' },
  { engine: 'duckduckgo', file: 'duckduckgo/NikolaiT-GoogleScraper/html/duckduckgo__no_results_literal__duckduckgo.html.gz', expect: 'blocked' },
];

export interface SpiderCase {
  yaml: string;
  html: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : [p];
  });
}

/** serp-spider YAML expectations and the page each names in its `file:` line. */
export function serpSpiderCases(root: string): SpiderCase[] {
  const base = path.join(root, 'google/serp-spider-search-engine-google');
  const yamlDir = path.join(base, 'expected-yaml');
  if (!existsSync(yamlDir)) return [];
  return walk(yamlDir).filter((f) => f.endsWith('.yml')).sort().flatMap((yaml) => {
    const m = /^file:\s*(\S+)/m.exec(readFileSync(yaml, 'utf8'));
    if (!m) return [];
    const rel = m[1].replace(/^test\/resources\//, '').replace(/\.html$/, '.html.gz');
    const html = path.join(base, 'html', rel);
    return existsSync(html) ? [{ yaml, html }] : [];
  });
}

/** Every result page of one engine in the corpus (for timing and no-throw checks). */
export function allPages(root: string): Array<{ engine: 'google' | 'bing' | 'duckduckgo'; file: string }> {
  return (['google', 'bing', 'duckduckgo'] as const).flatMap((engine) => {
    const dir = path.join(root, engine);
    return existsSync(dir) ? walk(dir).filter((f) => f.endsWith('.html.gz')).sort().map((file) => ({ engine, file })) : [];
  });
}
