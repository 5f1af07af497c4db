// The CDP user-agent override agrees with the contracts' device profiles.
import { describe, expect, it } from '@jest/globals';
import { DEVICE_PROFILES } from '#contracts';
import { parseBrands, userAgentOverride } from './device-emulation.js';

describe('userAgentOverride', () => {
  it('derives client-hint metadata from the profile so hints and user agent name the same Chrome', () => {
    const override = userAgentOverride(DEVICE_PROFILES.mobile, 'de-DE,de;q=0.9,en;q=0.8');
    expect(override.userAgent).toBe(DEVICE_PROFILES.mobile.userAgent);
    expect(override.acceptLanguage).toBe('de-DE,de,en');
    expect(override.platform).toBe('Linux armv81');
    expect(override.userAgentMetadata).toMatchObject({ platform: 'Android', platformVersion: '14.0.0', model: 'Pixel 8', mobile: true });
    expect(override.userAgentMetadata.brands).toEqual(parseBrands(DEVICE_PROFILES.mobile.headers['sec-ch-ua']));
    const chrome = override.userAgentMetadata.fullVersionList.find((b) => b.brand === 'Google Chrome');
    expect(chrome?.version).toBe(/Chrome\/([\d.]+)/.exec(DEVICE_PROFILES.mobile.userAgent)?.[1]);
  });

  it('marks the tablet profile as non-mobile in the hints, like its sec-ch-ua-mobile header', () => {
    expect(userAgentOverride(DEVICE_PROFILES.tablet, 'en').userAgentMetadata.mobile).toBe(false);
    expect(userAgentOverride(DEVICE_PROFILES.desktop, 'en').userAgentMetadata).toMatchObject({ platform: 'Windows', architecture: 'x86', mobile: false });
  });
});
