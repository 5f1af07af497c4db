/**
 * Scores the Google parser against serp-spider's hand-written YAML expectations (2016-2019 desktop and mobile).
 * Each asserted value we have an output field for counts once: classical results (found by URL or title, then
 * title / URL / description), result count, people-also-ask questions, answer box, knowledge-panel title, top
 * stories, local pack (title, street, stars, reviews) and related searches. Values without a counterpart in our
 * response (display URL `destination`, phone, AMP flag, ads, tweets, images) are tallied as `unscored`.
 */
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { parseGoogleSerp } from '#serp/google/google-provider.js';
import type { OrganicResult, SerpSearchResponse } from '#serp/types.js';
import { normalizeUrl } from '#serp/util/urls.js';
import { readPage, type SpiderCase } from './corpus.js';
import { normTitle, tokenF1 } from './match.js';

export interface SpiderScore {
  file: string;
  asserted: number;
  passed: number;
  failures: string[];
  unscored: Record<string, number>;
}

type Yaml = Record<string, unknown>;

const CLASSICAL = /^CLASSICAL/;

function str(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** Descriptions in the YAML were copied from the page, cut with "..." where Google cut them. */
function sameText(expected: string, actual: string | undefined): boolean {
  if (!actual) return false;
  return tokenF1(expected, actual) >= 0.9;
}

function sameUrl(expected: string, actual: string | undefined): boolean {
  return !!actual && normalizeUrl(expected) === normalizeUrl(actual);
}

export function scoreSpiderCase(c: SpiderCase): SpiderScore {
  // json: duplicate keys (one file repeats `title` in a news item) keep the last value instead of throwing.
  const spec = load(readFileSync(c.yaml, 'utf8'), { json: true }) as Yaml;
  const parsed = parseGoogleSerp(readPage(c.html), { type: 'search', page: 1, num: 10 });
  const r: SerpSearchResponse = parsed.result ?? { serp_search_results: [] };
  const organic = r.serp_search_results as OrganicResult[];
  const score: SpiderScore = { file: c.yaml, asserted: 0, passed: 0, failures: [], unscored: {} };
  const check = (what: string, ok: boolean) => {
    score.asserted++;
    if (ok) score.passed++;
    else score.failures.push(what);
  };
  const unscored = (field: string) => {
    score.unscored[field] = (score.unscored[field] ?? 0) + 1;
  };

  const methods = (spec['test-methods'] ?? {}) as Yaml;
  if (typeof methods.getNumberOfResults === 'number') {
    check('numberOfResults', r.searchInformation?.totalResults === methods.getNumberOfResults);
  }

  const used = new Set<number>();
  let classicalIndex = 0;
  for (const entry of (spec.results ?? []) as Yaml[]) {
    const types = (entry.types ?? []) as string[];
    const data = (entry.data ?? {}) as Yaml;
    const counts = (entry['data-count'] ?? {}) as Yaml;
    const kind = types[0] ?? '';
    if (CLASSICAL.test(kind)) {
      const index = classicalIndex++;
      const title = str(data.title);
      const url = str(data.url);
      if (!title && !url) {
        check(`classical #${index + 1} exists`, organic.length > index);
        continue;
      }
      const at = organic.findIndex((o, i) => !used.has(i) && (url ? sameUrl(url, o.link) : normTitle(o.title) === normTitle(title as string)));
      const found = at >= 0 ? organic[at] : undefined;
      if (found) used.add(at);
      if (url) check(`classical #${index + 1} url ${url}`, !!found);
      if (title) check(`classical #${index + 1} title ${title}`, !!found && normTitle(found.title) === normTitle(title));
      const description = str(data.description);
      if (description) check(`classical #${index + 1} description`, !!found && sameText(description, [found.date, found.snippet].filter(Boolean).join(' · ')));
      if (data.destination) unscored('destination');
      if (data.isAmp !== undefined) unscored('isAmp');
      continue;
    }
    if (kind === 'PEOPLE_ALSO_ASK') {
      const ours = new Set((r.peopleAlsoAsk ?? []).map((q) => normTitle(q.question)));
      for (const q of (data.questions ?? []) as Yaml[]) {
        const question = str(q.question);
        if (question) check(`paa ${question}`, ours.has(normTitle(question)));
      }
      if (typeof counts.questions === 'number') check('paa count', (r.peopleAlsoAsk ?? []).length === counts.questions);
      continue;
    }
    if (kind === 'ANSWER_BOX') {
      const a = r.answerBox;
      if (str(data.title)) check('answerBox title', !!a?.title && normTitle(a.title) === normTitle(str(data.title) as string));
      if (str(data.url)) check('answerBox url', sameUrl(str(data.url) as string, a?.link));
      if (str(data.description)) check('answerBox description', sameText(str(data.description) as string, a?.snippet));
      if (data.destination) unscored('destination');
      continue;
    }
    if (kind === 'KNOWLEDGE') {
      if (str(data.title)) check('knowledgeGraph title', normTitle(r.knowledgeGraph?.title ?? '') === normTitle(str(data.title) as string));
      else check('knowledgeGraph present', !!r.knowledgeGraph);
      continue;
    }
    if (kind === 'IN_THE_NEWS' || kind === 'TOP_STORIES') {
      const stories = r.topStories ?? [];
      for (const n of (data.news ?? []) as Yaml[]) {
        const t = str(n.title);
        const u = str(n.url);
        const s = stories.find((x) => (u && sameUrl(u, x.link)) || (t && normTitle(x.title) === normTitle(t)));
        if (u) check(`story url ${u}`, !!s && sameUrl(u, s.link));
        if (t) check(`story title ${t}`, !!s && normTitle(s.title) === normTitle(t));
        if (n.description) unscored('story description');
      }
      if (typeof counts.news === 'number') check('top stories count', stories.length === counts.news);
      if (!data.news && counts.news === undefined) check('top stories present', stories.length > 0);
      continue;
    }
    if (kind === 'MAP') {
      const places = r.places ?? [];
      for (const p of (data.localPack ?? []) as Yaml[]) {
        const t = str(p.title);
        const place = places.find((x) => t && normTitle(x.title) === normTitle(t));
        if (t) check(`place ${t}`, !!place);
        if (str(p.street)) check(`place street ${t}`, !!place?.address && normTitle(place.address).includes(normTitle(str(p.street) as string).split(',')[0]));
        if (typeof p.stars === 'number') check(`place stars ${t}`, place?.rating === p.stars);
        if (typeof p.review === 'number') check(`place reviews ${t}`, place?.ratingCount === p.review);
        if (p.phone) unscored('phone');
        if (p.url) unscored('place url');
      }
      if (typeof counts.localPack === 'number') check('local pack count', places.length === counts.localPack);
      continue;
    }
    if (Object.keys(data).length || Object.keys(counts).length) unscored(kind || 'unknown');
  }
  const related = spec['related-searches'] as Yaml[] | undefined;
  if (related) {
    const ours = new Set((r.relatedSearches ?? []).map((x) => normTitle(x.query)));
    for (const x of related) {
      const t = str(x.title);
      if (t) check(`related ${t}`, ours.has(normTitle(t)));
    }
  }
  return score;
}
