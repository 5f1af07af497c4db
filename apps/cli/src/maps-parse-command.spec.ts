import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runMapsParseCommand } from './maps-parse-command.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpusPayload = path.resolve(repoRoot, '../shared/corpus/serp/google-maps/gosom-google-maps-scraper/raw/raw.json.gz');
const searchPayload = path.resolve(repoRoot, '../shared/corpus/serp/google-maps/gosom-google-maps-scraper/raw/output.json.gz');
const hasCorpus = existsSync(corpusPayload) && existsSync(searchPayload);
if (!hasCorpus) console.warn(`SKIPPED maps:parse corpus cases: ${path.dirname(corpusPayload)} not found`);
const itCorpus = hasCorpus ? it : it.skip;

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runMapsParseCommand(args, { stdout, stderr });
  return { code, out, err };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'maps-cli-'));
  await writeFile(path.join(dir, 'nominatim.json'), JSON.stringify([{
    place_id: 1, osm_type: 'node', osm_id: 42, lat: '48.21', lon: '16.37', category: 'amenity', type: 'cafe', name: 'Kaffee',
    display_name: 'Kaffee, Herrengasse, Wien, Österreich', extratags: { opening_hours: '24/7' },
  }]));
  await writeFile(path.join(dir, 'consent.html'), '<html><form action="https://consent.google.com/save"></form></html>');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('maps:parse', () => {
  itCorpus('prints serp_maps_results for a gzipped Google Maps place payload', async () => {
    const { code, out } = await run(['--provider', 'google', corpusPayload]);
    expect(code).toBe(0);
    const json = JSON.parse(out) as { serp_maps_results: Array<Record<string, unknown>>; verdict?: unknown };
    expect(Object.keys(json)).toEqual(['serp_maps_results']);
    expect(json.serp_maps_results).toHaveLength(1);
    expect(json.serp_maps_results[0]).toMatchObject({ position: 1, title: 'Kipriakon', cid: '16519582940102929223', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU' });
  });

  itCorpus('prints the 20 places of a search payload, and one place for a --cid lookup', async () => {
    expect(JSON.parse((await run(['--provider', 'google', searchPayload])).out).serp_maps_results).toHaveLength(20);
    const hit = JSON.parse((await run(['--provider', 'google', '--cid', '1629270299114224275', searchPayload])).out) as { serp_maps_results: unknown[]; verdict?: unknown };
    expect(hit).toEqual({ serp_maps_results: [expect.objectContaining({ position: 1, title: 'Dream Coffee', cid: '1629270299114224275' })] });
    const miss = JSON.parse((await run(['--provider', 'google', '--cid', '1629014458226309779', searchPayload])).out) as { serp_maps_results: unknown[]; verdict?: unknown };
    expect(miss).toEqual({ serp_maps_results: [], verdict: expect.objectContaining({ kind: 'not_found' }) });
  });

  it('prints Nominatim results for --provider osm', async () => {
    const { code, out } = await run(['--provider', 'osm', path.join(dir, 'nominatim.json')]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      serp_maps_results: [{
        position: 1, title: 'Kaffee', address: 'Herrengasse, Wien, Österreich', type: 'Cafe', types: ['Cafe'], placeId: 'N42', latitude: 48.21, longitude: 16.37,
        openingHours: Object.fromEntries(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d) => [d, 'Open 24 hours'])),
      }],
    });
  });

  it('adds the verdict when the payload is not provider data', async () => {
    const { code, out } = await run(['--provider', 'google', path.join(dir, 'consent.html')]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ serp_maps_results: [], verdict: { kind: 'blocked', reason: 'consent' } });
  });

  it('fails with usage on bad arguments or unreadable files', async () => {
    expect((await run(['--provider', 'bing', 'x.json'])).err).toContain('unknown --provider');
    expect((await run(['x.json'])).err).toContain('missing --provider');
    expect((await run(['--provider', 'google'])).err).toContain('missing file');
    expect((await run(['--provider', 'google', '--cid', '12a', 'x.json'])).err).toContain('digits');
    const missing = await run(['--provider', 'osm', path.join(dir, 'missing.json')]);
    expect([missing.code, missing.err.includes('cannot read')]).toEqual([1, true]);
    expect((await run(['--help'])).code).toBe(0);
  });
});
