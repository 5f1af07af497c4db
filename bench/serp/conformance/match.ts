/**
 * How a parsed result list is compared with a reference parse: links equal after URL normalisation, titles equal
 * after whitespace/case folding, snippet token F1 ≥ 0.9, and order preserved (a reference result only counts when
 * its match comes after the previous match). Used by the conformance specs and by bench/serp/score.ts.
 */
import { normalizeUrl } from '#serp/util/urls.js';

export interface ReferenceResult {
  title: string;
  url: string;
  snippet?: string;
}

export interface ParsedResult {
  title: string;
  link: string;
  snippet: string;
  date?: string;
}

export interface MatchReport {
  total: number;
  matched: number;
  misses: Array<{ ref: ReferenceResult; why: string }>;
}

export function tokens(s: string): string[] {
  return s.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Token-level F1 (bag of words), as used for extractive QA. Two empty strings score 1. */
export function tokenF1(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  if (!ta.length && !tb.length) return 1;
  if (!ta.length || !tb.length) return 0;
  const counts = new Map<string, number>();
  for (const t of ta) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of tb) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common++;
      counts.set(t, n - 1);
    }
  }
  if (!common) return 0;
  const p = common / tb.length;
  const r = common / ta.length;
  return (2 * p * r) / (p + r);
}

export function normTitle(s: string): string {
  return s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The snippet as the reference parser would have printed it. Reference parsers keep the leading date
 * ("Apr 9, 2022 — …") inside the snippet; ours moves it to `date`, so it is put back before comparing.
 */
function comparableSnippet(ours: ParsedResult, ref: ReferenceResult): string {
  if (ours.date && ref.snippet && tokens(ref.snippet).slice(0, 3).join(' ') === tokens(ours.date).slice(0, 3).join(' ')) {
    return `${ours.date} — ${ours.snippet}`;
  }
  return ours.snippet;
}

/**
 * Scores `ours` against `refs`. A reference with an empty snippet asserts nothing about the snippet (the
 * reference parser printed '' where the page shows text), so only title and link are checked for it.
 */
export function matchResults(ours: ParsedResult[], refs: ReferenceResult[], minF1 = 0.9): MatchReport {
  const byUrl = new Map<string, number[]>();
  ours.forEach((o, i) => {
    const k = normalizeUrl(o.link);
    const l = byUrl.get(k);
    if (l) l.push(i);
    else byUrl.set(k, [i]);
  });
  let last = -1;
  let matched = 0;
  const misses: MatchReport['misses'] = [];
  for (const ref of refs) {
    const idxs = (byUrl.get(normalizeUrl(ref.url)) ?? []).filter((i) => i > last);
    if (!idxs.length) {
      misses.push({ ref, why: byUrl.has(normalizeUrl(ref.url)) ? 'out of order' : 'link not found' });
      continue;
    }
    const i = idxs.find((j) => normTitle(ours[j].title) === normTitle(ref.title));
    if (i === undefined) {
      misses.push({ ref, why: `title differs: ${JSON.stringify(ours[idxs[0]].title)}` });
      continue;
    }
    if (ref.snippet) {
      const f1 = tokenF1(ref.snippet, comparableSnippet(ours[i], ref));
      if (f1 < minF1) {
        misses.push({ ref, why: `snippet F1 ${f1.toFixed(2)}: ${JSON.stringify(ours[i].snippet.slice(0, 120))}` });
        last = i;
        continue;
      }
    }
    matched++;
    last = i;
  }
  return { total: refs.length, matched, misses };
}
