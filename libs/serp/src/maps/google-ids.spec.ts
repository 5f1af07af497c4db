import { describe, expect, it } from '@jest/globals';
import { cidFromFeatureId, featureIdFromCid, featureIdFromPlaceId, placeIdFromFeatureId } from './google-ids.js';

// Kipriakon, Limassol: the pair gosom's entry_test.go asserts (DataID, Cid, PlaceID).
const FEATURE_ID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CID = '16519582940102929223';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';

describe('Google place identifiers', () => {
  it('turns the low half of a feature id into a decimal cid, beyond Number precision', () => {
    expect(cidFromFeatureId(FEATURE_ID)).toBe(CID);
    expect(Number(CID).toString()).not.toBe(CID); // why BigInt is needed
    expect(cidFromFeatureId('0x14e706c6b6df081d:0x72b72a310a2af1f')).toBe('516632626948386591');
    expect(cidFromFeatureId('0x0:0x1')).toBe('1');
    expect(cidFromFeatureId('0XABC:0XFFFFFFFFFFFFFFFF')).toBe('18446744073709551615');
  });

  it('rejects what is not a feature id', () => {
    for (const bad of ['', '0x14e7', '14e7:0xe541', '0x1:0x', '0x1:0x0', '0x1:0x12345678901234567', '0x1:0xzz', 'ChIJ…']) {
      expect(cidFromFeatureId(bad)).toBeUndefined();
    }
  });

  it('turns a cid back into a zero-high-half feature id', () => {
    expect(featureIdFromCid(CID)).toBe('0x0:0xe5415928d6702b47');
    expect(featureIdFromCid('1')).toBe('0x0:0x1');
    expect(cidFromFeatureId(featureIdFromCid(CID) ?? '')).toBe(CID);
    for (const bad of ['', '0', '-1', '12a', '1.5', '18446744073709551616', '123456789012345678901']) {
      expect(featureIdFromCid(bad)).toBeUndefined();
    }
  });

  it('decodes a ChIJ place id into its feature id and back', () => {
    expect(featureIdFromPlaceId(PLACE_ID)).toBe(FEATURE_ID);
    expect(placeIdFromFeatureId(FEATURE_ID)).toBe(PLACE_ID);
    // base64url alphabet (`_`, `-`) and a high half with leading zero bytes
    expect(placeIdFromFeatureId(featureIdFromPlaceId('ChIJR_oXcDSjoRQRbQN4zOthU1c') ?? '')).toBe('ChIJR_oXcDSjoRQRbQN4zOthU1c');
    expect(featureIdFromPlaceId('ChIJR_oXcDSjoRQRbQN4zOthU1c')).toBe('0x14a1a3347017fa47:0x575361ebcc78036d');
  });

  it('refuses place ids that carry no feature id', () => {
    for (const bad of ['', 'EiRPbGQgcG9ydCwgTGltYXNzb2wgMzA0MiwgQ3lwcnVz', 'GhIJQWDl0CIeQUARxks3icF8U8A', 'ChIJDdnwdv0y5xQRRytw1ihZQe', 'ChIJDdnwdv0y5xQRRytw1ihZQeU=', 'ChIJ!dnwdv0y5xQRRytw1ihZQeU']) {
      expect(featureIdFromPlaceId(bad)).toBeUndefined();
    }
    expect(placeIdFromFeatureId('0x0:0xe5415928d6702b47')).toBeUndefined();
  });
});
