/**
 * Makes one render look like one real browser on one device: the profile's user agent, viewport and touch/mobile
 * flags on the context, plus a CDP user-agent override so the client-hint headers (sec-ch-ua*), navigator.platform,
 * navigator.userAgentData and Accept-Language all agree with the user agent string — Chromium would otherwise
 * announce its own (newer) version in the hints.
 */
import type { BrowserContextOptions, CDPSession } from 'playwright-core';
import { DEVICE_PROFILES, type DeviceProfile } from '#contracts';

export const DEFAULT_ACCEPT_LANGUAGE = 'en-US,en;q=0.9';

/**
 * The context options fixed at creation. Language is deliberately not among them (it is set per job by
 * `applyUserAgentOverride` and the Accept-Language header), so a warm context can serve any job of its device.
 */
export function contextDeviceOptions(profile: DeviceProfile): BrowserContextOptions {
  return {
    userAgent: profile.userAgent,
    viewport: { ...profile.viewport },
    screen: { ...profile.viewport },
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.hasTouch,
  };
}

/**
 * The desktop profile of the browser as it is: its own user agent (never a headless one), client hints with its
 * real major version and platform. Used by the headed pool, where claiming another version or OS would be a tell.
 */
export function nativeDesktopProfile(browserUserAgent: string): DeviceProfile {
  const userAgent = browserUserAgent.replace('HeadlessChrome/', 'Chrome/');
  const major = /Chrome\/(\d+)/.exec(userAgent)?.[1] ?? '0';
  const platform = /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : 'Linux';
  const desktop = DEVICE_PROFILES.desktop;
  return {
    ...desktop,
    userAgent,
    headers: { ...desktop.headers, 'sec-ch-ua': `"Chromium";v="${major}", "Not_A Brand";v="24"`, 'sec-ch-ua-platform': `"${platform}"` },
  };
}

interface Brand {
  brand: string;
  version: string;
}

/** Parses a sec-ch-ua value: `"Chromium";v="131", "Not_A Brand";v="24"` → brands. */
export function parseBrands(header: string | undefined): Brand[] {
  const brands: Brand[] = [];
  for (const match of (header ?? '').matchAll(/"([^"]+)";v="([^"]+)"/g)) brands.push({ brand: match[1], version: match[2] });
  return brands;
}

/** The Emulation.setUserAgentOverride parameters for a profile. */
export function userAgentOverride(profile: DeviceProfile, acceptLanguage: string) {
  const platform = (profile.headers['sec-ch-ua-platform'] ?? '"Windows"').replaceAll('"', '');
  const fullVersion = /Chrome\/([\d.]+)/.exec(profile.userAgent)?.[1] ?? '';
  const android = /Android ([\d.]+)/.exec(profile.userAgent);
  const model = /Android [\d.]+; ([^)]+)\)/.exec(profile.userAgent)?.[1] ?? '';
  const brands = parseBrands(profile.headers['sec-ch-ua']);
  return {
    userAgent: profile.userAgent,
    // CDP wants plain tags and computes the q-values itself.
    acceptLanguage: acceptLanguage
      .split(',')
      .map((part) => part.split(';')[0].trim())
      .filter(Boolean)
      .join(','),
    platform: platform === 'Android' ? 'Linux armv81' : platform === 'Windows' ? 'Win32' : platform === 'macOS' ? 'MacIntel' : 'Linux x86_64',
    userAgentMetadata: {
      brands,
      fullVersionList: brands.map((b) => ({ brand: b.brand, version: /^\d+$/.test(b.version) && fullVersion.startsWith(`${b.version}.`) ? fullVersion : `${b.version}.0.0.0` })),
      fullVersion,
      platform,
      platformVersion: android ? `${android[1]}.0.0` : platform === 'Windows' ? '10.0.0' : '',
      architecture: android ? '' : 'x86',
      bitness: android ? '' : '64',
      model,
      mobile: profile.headers['sec-ch-ua-mobile'] === '?1',
      wow64: false,
    },
  };
}

export async function applyUserAgentOverride(session: CDPSession, profile: DeviceProfile, acceptLanguage: string): Promise<void> {
  await session.send('Emulation.setUserAgentOverride', userAgentOverride(profile, acceptLanguage));
}
