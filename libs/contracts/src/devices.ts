/**
 * Consistent device profiles: a request looks like one real browser on one device —
 * user agent, client-hint headers, Accept headers and viewport agree with each other.
 */
export type DeviceKind = 'desktop' | 'mobile' | 'tablet';

export interface DeviceProfile {
  kind: DeviceKind;
  userAgent: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  /** Headers a browser on this device sends on a top-level navigation (without Accept-Language). */
  headers: Record<string, string>;
}

const CHROME_VERSION = '131.0.0.0';
const CHROME_MAJOR = CHROME_VERSION.split('.')[0];

const navigationHeaders = (platform: string, mobile: boolean): Record<string, string> => ({
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
  'sec-ch-ua': `"Chromium";v="${CHROME_MAJOR}", "Not_A Brand";v="24", "Google Chrome";v="${CHROME_MAJOR}"`,
  'sec-ch-ua-mobile': mobile ? '?1' : '?0',
  'sec-ch-ua-platform': `"${platform}"`,
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
  'upgrade-insecure-requests': '1',
});

export const DEVICE_PROFILES: Readonly<Record<DeviceKind, DeviceProfile>> = {
  desktop: {
    kind: 'desktop',
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION} Safari/537.36`,
    viewport: { width: 1366, height: 768 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    headers: navigationHeaders('Windows', false),
  },
  mobile: {
    kind: 'mobile',
    userAgent: `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION} Mobile Safari/537.36`,
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2.625,
    isMobile: true,
    hasTouch: true,
    headers: navigationHeaders('Android', true),
  },
  tablet: {
    kind: 'tablet',
    userAgent: `Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION} Safari/537.36`,
    viewport: { width: 800, height: 1280 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    headers: navigationHeaders('Android', false),
  },
};

/** An Accept-Language header for a language and optional country, e.g. `de`, `DE` → `de-DE,de;q=0.9,en;q=0.8`. */
export function acceptLanguage(language: string, country?: string): string {
  const lang = language.toLowerCase();
  const tag = country ? `${lang}-${country.toUpperCase()}` : lang;
  const parts = tag === lang ? [lang] : [tag, `${lang};q=0.9`];
  if (lang !== 'en') parts.push('en;q=0.8');
  return parts.join(',');
}
