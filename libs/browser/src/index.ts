/**
 * libs/browser — Chromium render pools for worker-render (headless) and worker-headful (headed under Xvfb):
 * a context per job, browser recycling and crash recovery, network-quiet waiting with caps, screenshots,
 * device-consistent emulation, and an SSRF guard proxy that sees every request the page makes.
 */
export type {
  AddressPolicy,
  ChromiumPoolOptions,
  PageRenderer,
  PoolStats,
  RenderOptions,
  RenderResult,
  RenderTimings,
} from './render-types.js';
export { ChromiumPool, DEFAULT_CHROMIUM_ARGS } from './chromium-pool.js';
export { DEFAULT_ACCEPT_LANGUAGE } from './device-emulation.js';
export { BrowserModule } from './browser.module.js';
export { HEADLESS_SHELL_PATH, renderExecutable } from './render-executable.js';
export { HeadfulBrowserModule, HEADFUL_POOL, HEADFUL_CHROMIUM_ARGS } from './headful-browser.module.js';
export { XvfbDisplay, type XvfbOptions } from './xvfb.js';
export { countryProfile, type CountryProfile } from './country-profile.js';
