/**
 * Loaders for the shared extraction corpus (../shared/corpus/extraction, read-only, never copied into the repo).
 * Each returns undefined when the dataset is absent so tests can skip with a message.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeHtml } from '#extraction';

export interface ZytePage {
  id: string;
  url: string;
  html: string;
  truth: string;
}
export interface TrafilaturaPage {
  url: string;
  file: string;
  html: string;
  with: string[];
  without: string[];
}
export interface ReadabilityPage {
  name: string;
  html: string;
  expectedHtml: string;
  expectedMetadata: Record<string, unknown>;
}

export function corpusRoot(repoRoot: string): string {
  return path.resolve(repoRoot, '../shared/corpus/extraction');
}

export function loadZyte(root: string): ZytePage[] | undefined {
  const dir = path.join(root, 'zyte-article-extraction-benchmark');
  if (!existsSync(path.join(dir, 'ground-truth.json'))) return undefined;
  const truth = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return Object.entries(truth).map(([id, t]) => ({
    id,
    url: t.url,
    truth: t.articleBody,
    html: decodeHtml(gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`)))).text,
  }));
}

export function loadTrafilatura(root: string): TrafilaturaPage[] | undefined {
  const dir = path.join(root, 'trafilatura-eval');
  if (!existsSync(path.join(dir, 'evaldata.json'))) return undefined;
  const data = JSON.parse(readFileSync(path.join(dir, 'evaldata.json'), 'utf8')) as Record<string, { file: string; with: string[]; without: string[] }>;
  return Object.entries(data).map(([url, d]) => ({
    url,
    file: d.file,
    with: d.with ?? [],
    without: d.without ?? [],
    html: decodeHtml(gunzipSync(readFileSync(path.join(dir, 'html', `${d.file}.gz`)))).text,
  }));
}

export function loadReadability(root: string): ReadabilityPage[] | undefined {
  const dir = path.join(root, 'mozilla-readability-test-pages', 'test-pages');
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .sort()
    .filter((name) => existsSync(path.join(dir, name, 'source.html')))
    .map((name) => ({
      name,
      html: readFileSync(path.join(dir, name, 'source.html'), 'utf8'),
      expectedHtml: readFileSync(path.join(dir, name, 'expected.html'), 'utf8'),
      expectedMetadata: JSON.parse(readFileSync(path.join(dir, name, 'expected-metadata.json'), 'utf8')) as Record<string, unknown>,
    }));
}

export interface WcxbPage {
  id: string;
  url: string;
  /** article, service, product, collection, forum, listing or documentation */
  pageType: string;
  html: string;
  truth: string;
  with: string[];
  without: string[];
}

interface WcxbTruth {
  url: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth: { main_content?: string; with?: string[]; without?: string[] };
}

/** The WCXB development split (ground truth per page; the page type from the ground truth, else metadata.json). */
export function loadWcxb(root: string): WcxbPage[] | undefined {
  const dir = path.join(root, 'wcxb-dev');
  if (!existsSync(path.join(dir, 'dev', 'ground-truth'))) return undefined;
  const meta = existsSync(path.join(dir, 'metadata.json'))
    ? (JSON.parse(readFileSync(path.join(dir, 'metadata.json'), 'utf8')) as { files?: Record<string, { page_type?: string }> }).files ?? {}
    : {};
  return readdirSync(path.join(dir, 'dev', 'ground-truth'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const id = f.slice(0, -5);
      const t = JSON.parse(readFileSync(path.join(dir, 'dev', 'ground-truth', f), 'utf8')) as WcxbTruth;
      return {
        id,
        url: t.url,
        pageType: t._internal?.page_type?.primary ?? meta[id]?.page_type ?? 'unknown',
        truth: t.ground_truth.main_content ?? '',
        with: t.ground_truth.with ?? [],
        without: t.ground_truth.without ?? [],
        html: decodeHtml(gunzipSync(readFileSync(path.join(dir, 'dev', 'html', `${id}.html.gz`)))).text,
      };
    });
}
