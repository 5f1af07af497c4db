/**
 * Conformance on the gosom Google Maps payloads (../shared/corpus/serp/google-maps/gosom-google-maps-scraper).
 * Every §2.3 field of the expected record (transcribed from gosom's entry_test.go) must match, every payload must
 * parse without a crash, and the identifiers must agree with each other. Skipped, with a message, when absent.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusRoot, readPage } from '#bench/serp/conformance/corpus.js';
import { corpusPresent } from '#test/support/requires.js';
import { featureIdFromPlaceId } from '#serp/maps/google-ids.js';
import { parseGoogleMaps } from '#serp/maps/google-maps.js';
import type { MapsParams, Place } from '#serp/maps/types.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serpRoot = corpusRoot(repoRoot);
const dir = serpRoot ? path.join(serpRoot, 'google-maps/gosom-google-maps-scraper') : '';
const present = corpusPresent(path.resolve(repoRoot, '../shared/corpus/serp/google-maps/gosom-google-maps-scraper/expected/raw.expected.json'), 'Google Maps corpus conformance');
const describeCorpus = present ? describe : describe.skip;

/** gosom Entry field → §2.3 field. Entry fields not in §2.3 (Link, PlusCode, Status, Timezone, Images, …) are not compared. */
const FIELD_MAP: Record<string, keyof Place> = {
  Title: 'title', Category: 'type', Categories: 'types', Address: 'address', OpenHours: 'openingHours', WebSite: 'website',
  Phone: 'phoneNumber', ReviewCount: 'ratingCount', ReviewRating: 'rating', Latitude: 'latitude', Longtitude: 'longitude',
  Cid: 'cid', Thumbnail: 'thumbnailUrl', PriceRange: 'priceLevel', PlaceID: 'placeId',
};

/** gosom keeps empty strings and a list of ranges per day; §2.3 omits absent values and joins ranges. */
function expectedValue(field: string, value: unknown): unknown {
  if (value === '') return undefined;
  if (field === 'OpenHours') return Object.fromEntries(Object.entries(value as Record<string, string[]>).map(([d, r]) => [d, r.join(', ')]));
  return value;
}

const parse = (rel: string, q: MapsParams = { q: '' }) => parseGoogleMaps(readPage(path.join(dir, rel)), q);
const tally = { records: 0, fields: 0, fieldsMatched: 0, payloads: 0, parsed: 0 };

describeCorpus('Google Maps corpus conformance (gosom)', () => {
  afterAll(() => {
    console.info(`Google Maps corpus: ${tally.fieldsMatched}/${tally.fields} expected fields matched over ${tally.records} record(s); `
      + `${tally.parsed}/${tally.payloads} payloads parsed with places`);
  });

  it('matches every §2.3 field of the expected Kipriakon record (raw.json)', () => {
    const expected = JSON.parse(readFileSync(path.join(dir, 'expected/raw.expected.json'), 'utf8')) as Record<string, unknown>;
    const { verdict, places } = parse('raw/raw.json.gz');
    expect(verdict).toEqual({ kind: 'ok' });
    expect(places).toHaveLength(1);
    const mismatches: string[] = [];
    tally.records += 1;
    for (const [goField, ours] of Object.entries(FIELD_MAP)) {
      const want = expectedValue(goField, expected[goField]);
      const got = places[0][ours];
      tally.fields += 1;
      if (JSON.stringify(got) === JSON.stringify(want)) tally.fieldsMatched += 1;
      else mismatches.push(`${goField}→${ours}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
    expect(mismatches).toEqual([]);
    expect(places[0].position).toBe(1);
  });

  it('parses every Maps payload without a crash, each yielding places', () => {
    const files = readdirSync(path.join(dir, 'raw')).filter((f) => f.endsWith('.json.gz')).sort();
    expect(files).toEqual(['output.json.gz', 'panic.json.gz', 'panic2.json.gz', 'raw.json.gz', 'raw2.json.gz']);
    for (const f of files) {
      tally.payloads += 1;
      const body = readPage(path.join(dir, 'raw', f));
      const plain = parseGoogleMaps(body, { q: '' });
      // as served: with the XSSI guard line in front
      const guarded = parseGoogleMaps(`)]}'\n${body}`, { q: '' });
      expect({ f, verdict: plain.verdict }).toEqual({ f, verdict: { kind: 'ok' } });
      expect(guarded).toEqual(plain);
      expect(plain.places.length).toBeGreaterThan(0);
      for (const p of plain.places) expect(typeof p.title === 'string' && typeof p.latitude === 'number' && /^\d+$/.test(p.cid ?? '')).toBe(true);
      tally.parsed += 1;
    }
  });

  it('review objects (not Maps payloads) come out as a verdict, not a crash', () => {
    const reviews = readdirSync(path.join(dir, 'raw')).filter((x) => x.startsWith('review_')).sort();
    expect(reviews).toHaveLength(4);
    for (const f of reviews) {
      expect(() => parse(`raw/${f}`)).not.toThrow();
      expect(parse(`raw/${f}`).places).toEqual([]);
    }
  });

  it('search payload "coffee": 20 places, ranked, each place id matching its own reviews link and feature id', () => {
    const { places } = parse('raw/output.json.gz');
    expect(places).toHaveLength(20);
    expect(places.map((p) => p.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(places[0]).toMatchObject({ title: 'Dream Coffee', address: 'Eakou 74, Ilion 131 22, Greece', rating: 4.8, ratingCount: 48, type: 'Coffee shop' });
    // Derived check: the payload says the same id three ways ([78], the reviews link, the ChIJ-encoded feature id).
    const data = JSON.parse(readPage(path.join(dir, 'raw/output.json.gz'))) as unknown[][][];
    const items = (data[0][1] as unknown[]).slice(1) as unknown[][];
    items.forEach((item, i) => {
      const b = item[14] as unknown[];
      const reviews = String(((b[4] as unknown[])[3] as unknown[])[0]);
      expect(new URL(reviews).searchParams.get('placeid')).toBe(places[i].placeId);
      expect(featureIdFromPlaceId(places[i].placeId ?? '')).toBe(b[10]);
    });
    expect(places.filter((p) => p.openingHours).length).toBeGreaterThanOrEqual(18);
    expect(places[0].openingHours).toMatchObject({ Saturday: '7 AM–8:30 PM', Sunday: 'Closed' });
  });

  it('the same place in Greek (raw2, hl=el) keeps its ids and gets English weekday keys', () => {
    const [p] = parse('raw/raw2.json.gz').places;
    expect(p).toMatchObject({ title: 'Κυπριακόν', cid: '16519582940102929223', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', latitude: 34.670595399999996, type: 'Εστιατόριο' });
    expect(Object.keys(p.openingHours ?? {}).sort()).toEqual(['Friday', 'Monday', 'Saturday', 'Sunday', 'Thursday', 'Tuesday', 'Wednesday']);
    expect(p.thumbnailUrl).toBe('https://lh5.googleusercontent.com/p/AF1QipP4Y7A8nYL3KKXznSl69pXSq9p2IXCYUjVvOh0F=w408-h408-k-no');
  });

  it('a lookup on a place payload confirms the asked id or says not_found', () => {
    expect(parse('raw/panic.json.gz', { q: '', cid: '516632626948386591' }).places[0]?.title).toBe('Happy Island Restaurant');
    expect(parse('raw/panic.json.gz', { q: '', cid: '16519582940102929223' }).verdict.kind).toBe('not_found');
    expect(parse('raw/panic2.json.gz', { q: '', placeId: 'ChIJNVsWObd15xQRU3nNQXbKgH4' }).places).toHaveLength(1);
  });
});
