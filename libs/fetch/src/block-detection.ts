/**
 * Tiered block detection: is this response an anti-bot wall rather than the page? A pure function of status, HTML
 * and headers, shared by the headful engine (retry through another proxy) and usable by /crawl and the SERP
 * handlers. Tiers after crawl4ai's antibot detector and Crawlee's blocked.ts (UPSTREAMS.md §E):
 * 1. vendor markers that mean a challenge at any page size (Cloudflare, Akamai, PerimeterX, DataDome, Incapsula…);
 * 2. generic wall phrases (captcha widgets, "Access Denied", "Just a moment") only on small pages, where they are
 *    the page rather than a mention in an article; refusing statuses (401/403/429/503) with any challenge marker;
 * 3. structurally empty pages: no body text, a script-only shell.
 */

export interface BlockVerdict {
  blocked: boolean;
  /** 1: vendor marker, 2: wall on a small page or refusing status, 3: structurally empty. */
  tier?: 1 | 2 | 3;
  /** What gave it away, for logs (never the page itself). */
  reason?: string;
}

export interface BlockInput {
  status: number;
  html: string;
  headers?: Record<string, string>;
}

/**
 * Markers that mean a challenge or block page whatever the page size, each with the literal pieces (`cues`) that any
 * text it matches contains: one pass over the page for all the cues decides whether the markers are tried at all.
 */
const VENDOR_MARKERS: ReadonlyArray<{ pattern: RegExp; reason: string; cues: string[] }> = [
  { pattern: /challenge-form[^>]*__cf_chl_f_tk=|__cf_chl_(?:opt|tk|rt_tk)/i, reason: 'cloudflare challenge', cues: ['__cf_chl_'] },
  { pattern: /\/cdn-cgi\/challenge-platform\/[^"']*orchestrate/i, reason: 'cloudflare challenge platform', cues: ['challenge-platform'] },
  { pattern: /<span class="cf-error-code">\d{4}/i, reason: 'cloudflare error page', cues: ['cf-error-code'] },
  { pattern: /challenges\.cloudflare\.com\/turnstile/i, reason: 'cloudflare turnstile', cues: ['challenges.cloudflare.com'] },
  {
    pattern: /Reference&#32;#\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+|Reference #\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i,
    reason: 'akamai reference page',
    cues: ['reference&#32;#', 'reference #'],
  },
  { pattern: /Pardon Our Interruption/i, reason: 'akamai/distil interruption page', cues: ['pardon our interruption'] },
  // `id="px-captcha"` is the block page's widget; a bare "px-captcha" also names CSS rules on protected sites' normal pages.
  { pattern: /window\._pxAppId\s*=|captcha\.px-cdn\.net|id=["']px-captcha["']/i, reason: 'perimeterx', cues: ['_pxappid', 'px-cdn.net', 'px-captcha'] },
  { pattern: /captcha-delivery\.com|geo\.captcha-delivery/i, reason: 'datadome', cues: ['captcha-delivery'] },
  { pattern: /_Incapsula_Resource|Incapsula incident ID/i, reason: 'incapsula', cues: ['_incapsula_resource', 'incapsula incident id'] },
  { pattern: /Sucuri WebSite Firewall/i, reason: 'sucuri', cues: ['sucuri website firewall'] },
  { pattern: /KPSDK\.scriptStart\s*=\s*KPSDK\.now\(\)/, reason: 'kasada', cues: ['kpsdk.scriptstart'] },
  { pattern: /blocked by network security/i, reason: 'network security block', cues: ['blocked by network security'] },
];

/** Any cue of any vendor marker, in one case-insensitive pass: about half the cost of trying the markers one by one. */
const ANY_VENDOR_CUE = new RegExp(
  VENDOR_MARKERS.flatMap((m) => m.cues)
    .map((cue) => cue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'i',
);

/** Phrases and widgets that are a wall when they are most of the page (small pages only). */
const WALL_MARKERS: ReadonlyArray<[RegExp, string]> = [
  [/<title>\s*Just a moment/i, 'cloudflare interstitial'],
  [/Checking your browser/i, 'browser check'],
  [/Access Denied/i, 'access denied'],
  [/Access to This Page Has Been Blocked/i, 'access blocked'],
  [/blocked by security|Request unsuccessful/i, 'security block'],
  [/class=["'][^"']*g-recaptcha|www\.google\.com\/recaptcha\/(?:api|enterprise)/i, 'recaptcha wall'],
  [/class=["'][^"']*h-captcha|hcaptcha\.com\/1\/api/i, 'hcaptcha wall'],
  [/cf-turnstile/i, 'turnstile wall'],
];

const SMALL_PAGE = 10 * 1024;
const SHELL_PAGE = 50 * 1024;
/** The part of a large page scanned for vendor markers after scripts and styles are stripped. */
const SCAN_LIMIT = 500 * 1024;

export function detectBlock({ status, html, headers = {} }: BlockInput): BlockVerdict {
  const header = (name: string) => headers[name] ?? headers[name.toLowerCase()] ?? '';
  if (header('cf-mitigated').toLowerCase() === 'challenge') return { blocked: true, tier: 1, reason: 'cloudflare cf-mitigated header' };

  const head = html.length > SCAN_LIMIT ? html.slice(0, SCAN_LIMIT) : html;
  // Stripping only removes text: a page with no marker in its raw form has none once stripped, and almost every page
  // has none — so the copy that stripping makes (as costly as all the scans) is made only for the few that do.
  if (ANY_VENDOR_CUE.test(head)) {
    // On large pages vendor names can appear in scripts of normal pages (CF injects __CF$cv$params everywhere):
    // scan what remains once scripts and styles are gone.
    const scanned = html.length > SHELL_PAGE ? stripScriptsAndStyles(head) : head;
    for (const { pattern, reason } of VENDOR_MARKERS) {
      if (pattern.test(scanned)) return { blocked: true, tier: 1, reason };
    }
  }

  const refusing = status === 401 || status === 403 || status === 429 || status === 503;
  const small = html.length < SMALL_PAGE;
  if (small || refusing) {
    for (const [pattern, reason] of WALL_MARKERS) {
      if (pattern.test(head)) return { blocked: true, tier: 2, reason: refusing ? `HTTP ${status} with ${reason}` : reason };
    }
  }
  if (status === 429) return { blocked: true, tier: 2, reason: 'HTTP 429' };
  if (refusing && small && visibleText(head).length < 200) return { blocked: true, tier: 2, reason: `HTTP ${status} with a near-empty page` };

  if (status >= 200 && status < 300 && html.length < SHELL_PAGE) {
    if (html.trim().length < 100) return { blocked: true, tier: 3, reason: 'empty response' };
    const text = visibleText(head);
    if (!/<body[\s>]/i.test(head) && text.length < 50) return { blocked: true, tier: 3, reason: 'no body' };
    if (text.length < 50 && !/<(?:img|video|iframe|canvas|svg|form|input|a)\b/i.test(stripScriptsAndStyles(head))) {
      return { blocked: true, tier: 3, reason: /<script/i.test(head) ? 'script-only shell' : 'no visible content' };
    }
  }
  return { blocked: false };
}

function stripScriptsAndStyles(html: string): string {
  return html.replace(/<script\b[\s\S]*?<\/script>/gi, ' ').replace(/<style\b[\s\S]*?<\/style>/gi, ' ').replace(/<noscript\b[\s\S]*?<\/noscript>/gi, ' ');
}

function visibleText(html: string): string {
  return stripScriptsAndStyles(html)
    .replace(/<head\b[\s\S]*?<\/head>/i, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
