/**
 * Robustness of the SERP parsers on pages they were not tuned for, simulated on the dev pages: each page with an
 * expectation (Google: hand pins and reference parses; Bing and DuckDuckGo: hand pins) is perturbed the way pages
 * of other years and markets differ (perturb.ts), and the page counts as complete when every organic result of the
 * intact page comes out of the perturbed one, in order, and the page is not reported as blocked. No-results and
 * block pages must keep their verdict under the same perturbations. Used by bench/serp/score.ts and
 * test/serp/robustness.spec.ts.
 */
import path from 'node:path';
import { parseBingSearchPage } from '#serp/bing/bing-provider.js';
import { parseDuckDuckGoSearchPage } from '#serp/duckduckgo/duckduckgo-provider.js';
import { parseGoogleSerp } from '#serp/google/google-provider.js';
import type { OrganicResult, SerpVerdict } from '#serp/types.js';
import { normalizeUrl } from '#serp/util/urls.js';
import { BING_PINNED_PAGES, DUCKDUCKGO_PINNED_COUNTS, googleReferenceCases, readPage, VERDICT_CASES } from './corpus.js';
import { GOOGLE_PINNED_PAGES } from './google-pinned.js';
import { PERTURBATIONS, perturb, type Engine, type Perturbation } from './perturb.js';

export interface ParsedPage {
  verdict: SerpVerdict;
  links: string[];
  titles: string[];
}

export function parseAs(engine: Engine, html: string): ParsedPage {
  if (engine === 'google') {
    const { verdict, result } = parseGoogleSerp(html, { type: 'search', page: 1, num: 10 });
    const organic = (result?.serp_search_results ?? []) as OrganicResult[];
    return { verdict, links: organic.map((o) => o.link), titles: organic.map((o) => o.title) };
  }
  const parse = engine === 'bing' ? parseBingSearchPage : parseDuckDuckGoSearchPage;
  const { verdict, page } = parse(html, { page: 1 });
  const results = page?.search_results ?? [];
  return { verdict, links: results.map((r) => r.link), titles: results.map((r) => r.title) };
}

/** The pages with an expectation, per engine (paths under the corpus root). */
export function expectationPages(root: string): Array<{ engine: Engine; file: string }> {
  // No-results and block pages are scored by verdictRobustness.
  const special = new Set(VERDICT_CASES.map((c) => path.join(root, c.file)));
  const google = [
    ...GOOGLE_PINNED_PAGES.map(([f]) => path.join(root, 'google', f)),
    ...googleReferenceCases(root).map((c) => c.html),
  ].filter((f) => !special.has(f));
  return [
    ...google.map((file) => ({ engine: 'google' as const, file })),
    ...BING_PINNED_PAGES.map(([f]) => ({ engine: 'bing' as const, file: path.join(root, 'bing', f) })),
    ...Object.keys(DUCKDUCKGO_PINNED_COUNTS).map((f) => ({ engine: 'duckduckgo' as const, file: path.join(root, 'duckduckgo', f) })),
  ];
}

export interface RobustnessRow {
  engine: Engine;
  perturbation: Perturbation | 'intact';
  pages: number;
  /** Every result of the intact page found, in order, and the page not blocked. */
  complete: number;
  results: number;
  found: number;
  /** Perturbed pages reported as blocked. */
  blocked: number;
  misses: string[];
}

/** True when `want` appears in `got` as a subsequence (every expected link, in order; extra entries allowed). */
function inOrder(want: string[], got: string[]): { complete: boolean; found: number } {
  const have = new Set(got);
  const found = want.filter((w) => have.has(w)).length;
  let i = 0;
  for (const g of got) if (i < want.length && g === want[i]) i++;
  return { complete: i === want.length, found };
}

export function robustnessReport(root: string, perturbations: readonly Perturbation[] = PERTURBATIONS): RobustnessRow[] {
  const rows = new Map<string, RobustnessRow>();
  const row = (engine: Engine, p: Perturbation | 'intact') => {
    const k = `${engine}/${p}`;
    let r = rows.get(k);
    if (!r) rows.set(k, (r = { engine, perturbation: p, pages: 0, complete: 0, results: 0, found: 0, blocked: 0, misses: [] }));
    return r;
  };
  for (const { engine, file } of expectationPages(root)) {
    const html = readPage(file);
    const intact = parseAs(engine, html);
    const want = intact.links.map(normalizeUrl);
    for (const p of ['intact', ...perturbations] as const) {
      const got = p === 'intact' ? intact : parseAs(engine, perturb(html, engine, p));
      const r = row(engine, p);
      const m = inOrder(want, got.links.map(normalizeUrl));
      r.pages++;
      r.results += want.length;
      r.found += m.found;
      if (got.verdict.kind === 'blocked') r.blocked++;
      if (m.complete && got.verdict.kind !== 'blocked' && want.length) r.complete++;
      else r.misses.push(`${path.relative(root, file)}: ${m.found}/${want.length}${got.verdict.kind === 'blocked' ? ' (blocked)' : ''}`);
    }
  }
  return [...rows.values()];
}

export interface VerdictRobustness {
  perturbation: Perturbation | 'intact';
  cases: number;
  kept: number;
  misses: string[];
}

/** No-results and block pages under each perturbation: the verdict kind must stay what the intact page is. */
export function verdictRobustness(root: string, perturbations: readonly Perturbation[] = PERTURBATIONS): VerdictRobustness[] {
  return (['intact', ...perturbations] as const).map((p) => {
    const r: VerdictRobustness = { perturbation: p, cases: 0, kept: 0, misses: [] };
    for (const c of VERDICT_CASES) {
      const html = readPage(path.join(root, c.file));
      const v = parseAs(c.engine, p === 'intact' ? html : perturb(html, c.engine, p)).verdict;
      r.cases++;
      if (v.kind === c.expect) r.kept++;
      else r.misses.push(`${c.file}: ${JSON.stringify(v)}, expected ${c.expect}`);
    }
    return r;
  });
}
