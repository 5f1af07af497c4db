/**
 * Conformance cases whose fix is delivered on another branch (issue #37 items 1–3). They are written here as the
 * specification says and left as `it.todo` until that branch is merged; then switch each to a real case (the
 * comment beside each todo says what it must assert).
 */
export const CONF_A_ITEMS = {
  /** Item 1: /crawl screenshot / screenshot_full_page without render_js are ignored (§4.4), also on MCP. */
  crawlScreenshotIgnored: 'issue #37 item 1 (branch conf-a)',
  /** Item 2: /headful-browser with only urls works on a deployment without residential proxies. */
  headfulWithoutProxies: 'issue #37 item 2 (branch conf-a)',
  /** Item 3: /search geolocation=random works on a fresh install; one country-without-proxy rule for every endpoint. */
  geolocationRandom: 'issue #37 item 3 (branch conf-a)',
} as const;
