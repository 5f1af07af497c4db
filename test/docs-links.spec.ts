/**
 * The README and docs/ are read in a clone: every relative link must name a file of the repository, and every
 * `#anchor` a heading of the file it points into (GitHub's heading slugs).
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './support/env.js';

const LINK = /\]\(([^)\s]+)\)/g;

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces to hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => headingSlug(m[1])));
}

const documents = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('links in the README and docs/', () => {
  it('slugs headings as GitHub does', () => {
    expect(headingSlug('Sizing and what to scale on')).toBe('sizing-and-what-to-scale-on');
    expect(headingSlug('`GET /crawl`')).toBe('get-crawl');
    expect(headingSlug('/mcp and /openapi.json')).toBe('mcp-and-openapijson');
  });

  it.each(documents)('%s links only to files and headings that exist', (doc) => {
    const file = path.join(REPO_ROOT, doc);
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(LINK)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [filePart, anchor] = target.split('#');
      const linked = filePart ? path.resolve(path.dirname(file), filePart) : file;
      if (!linked.startsWith(REPO_ROOT + path.sep) || !existsSync(linked)) broken.push(target);
      else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
