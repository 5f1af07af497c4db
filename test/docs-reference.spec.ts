/**
 * The written reference against the code: docs/api.md's parameter tables are what the API reference generates (the
 * schemas behind /openapi.json), they are the only parameter tables of the README and docs/, and
 * docs/configuration.md names every variable of the config schema.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiLimits, configSchema, loadConfig } from '#config';
import { API_REFERENCE, withParamTables } from '#contracts';
import { REPO_ROOT } from './support/env.js';

const read = (doc: string) => readFileSync(path.join(REPO_ROOT, doc), 'utf8');
const documents = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('docs/api.md', () => {
  it('holds the parameter tables the API reference generates', () => {
    const committed = read('docs/api.md');
    const config = loadConfig({});
    const generated = withParamTables(committed, API_REFERENCE, apiLimits(config));
    const theirs = committed.split('\n');
    const differing = generated.split('\n').filter((line, i) => line !== theirs[i]);
    const verdict = generated === committed ? 'up to date' : `stale: run \`npm run docs:api\` (first differing line: ${differing[0]})`;
    expect(verdict).toBe('up to date');
  });

  it.each(documents)('%s has no hand-written parameter table (docs/api.md generates them)', (doc) => {
    const outsideTables = read(doc).replace(/<!-- params (?:[A-Z]+ )?\S+ -->[\s\S]*?<!-- \/params -->/g, '');
    expect(outsideTables.match(/^\|\s*parameter\s*\|.*$/gim) ?? []).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it('names every variable of the config schema', () => {
    const text = read('docs/configuration.md');
    const missing = Object.keys(configSchema.shape).filter((name) => !text.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
