/**
 * `npm run docs:api`: rewrites the parameter tables of docs/api.md from the API reference (libs/contracts/src/api),
 * with the limits of a default configuration. test/api-tables.spec.ts fails when the committed tables differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiLimits, loadConfig } from '#config';
import { API_REFERENCE, withParamTables } from '#contracts';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/api.md');
const config = loadConfig({});
const before = readFileSync(file, 'utf8');
const after = withParamTables(before, API_REFERENCE, apiLimits(config));
if (after === before) console.log('docs/api.md: parameter tables up to date');
else {
  writeFileSync(file, after);
  console.log('docs/api.md: parameter tables rewritten');
}
