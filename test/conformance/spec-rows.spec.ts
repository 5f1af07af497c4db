/**
 * The conformance suite's transcription of the specification (support/spec.ts) against the specification's own
 * parameter tables (§4.1–§4.5): the same names, types, required flags and defaults, so the suite cannot drift from the
 * contract it checks. Reads ../shared/spec/api-spec.md (skipped with a message when absent; required under CI).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../support/env.js';
import { corpusPresent } from '../support/requires.js';
import { CRAWL_PARAMS, HEADFUL_PARAMS, SEARCH_PARAMS, SERP_MAPS_PARAMS, SERP_SEARCH_PARAMS, type ParamRow } from './support/spec.js';

const SPEC = `${REPO_ROOT}/../shared/spec/api-spec.md`;
const hasSpec = corpusPresent(SPEC, 'conformance rows against the specification');

/** The parameter table of the section whose heading starts with `heading`: name, type, required, default per row. */
function specTable(text: string, heading: string): Array<{ name: string; type: string; required: boolean; default?: string }> {
  const start = text.indexOf(`### ${heading}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Name |'));
  const columns = lines[header].split('|').map((c) => c.trim()).filter(Boolean);
  const rows: Array<{ name: string; type: string; required: boolean; default?: string }> = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const cell = (name: string) => cells[columns.indexOf(name)];
    const fallback = columns.includes('Default') ? cell('Default').replace(/`/g, '') : '-';
    rows.push({ name: cell('Name').replace(/`/g, ''), type: cell('Type'), required: cell('Required') === 'yes', ...(fallback !== '-' ? { default: fallback } : {}) });
  }
  return rows;
}

const ours = (rows: readonly ParamRow[]) => rows.map(({ name, type, required, default: fallback }) => ({ name, type, required, ...(fallback !== undefined ? { default: fallback } : {}) }));

(hasSpec ? describe : describe.skip)('support/spec.ts transcribes the specification\'s parameter tables', () => {
  const text = hasSpec ? readFileSync(SPEC, 'utf8') : '';
  it.each([
    ['4.1 `GET /search`', SEARCH_PARAMS],
    ['4.2 `GET /serp-search`', SERP_SEARCH_PARAMS],
    ['4.3 `GET /serp-maps`', SERP_MAPS_PARAMS],
    ['4.4 `GET /crawl`', CRAWL_PARAMS],
    ['4.5 `GET /headful-browser`', HEADFUL_PARAMS],
  ] as const)('§%s', (heading, rows) => {
    expect(ours(rows)).toEqual(specTable(text, heading));
  });
});
