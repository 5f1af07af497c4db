/**
 * What a result page says about itself when it has no results: a captcha / "unusual traffic" wall, a cookie-consent
 * interstitial, an anti-bot vendor's challenge, a rate-limit notice, or the engine's own "no results" message.
 * Parsers consult this only after they found nothing, because ordinary snippets can contain words like "captcha".
 *
 * A block needs positive evidence. For Google, a page with neither results nor a marker is an ordinary page whose
 * layout we do not know: `ok` with zero results (the parser flags it), never a block — retrying a page we merely
 * failed to read only burns proxies. Bing and DuckDuckGo keep the stricter rule (an unrecognised page is
 * blocked/'unknown'): DuckDuckGo answers challenges with a 2xx page that has no results section.
 */
import type { BlockReason, SerpVerdict } from '../types.js';

interface Marker {
  reason: BlockReason;
  pattern: RegExp;
}

const BLOCK_MARKERS: Marker[] = [
  // Google's "unusual traffic" / "automated queries" pages in the languages they are served in.
  {
    reason: 'unusual_traffic',
    pattern: /unusual traffic from your computer network|sending automated queries|automatisierte anfragen|requêtes automatiques|consultas automatizadas|ungewöhnlichen datenverkehr|trafic exceptionnel|tráfico inusual|traffico insolito|tráfego incomum|tráfego invulgar|ongebruikelijk verkeer|nietypowy ruch|необычный трафик|olağan dışı trafik|通常と異なるトラフィック|异常流量|異常流量|비정상적인 트래픽/i,
  },
  // Captcha forms and Google's /sorry/ interstitial (its URL, its form, or a redirect to it).
  {
    reason: 'captcha',
    pattern: /id=["']?captcha-form|action=["'][^"']*\/sorry\/|class=["'][^"']*g-recaptcha|recaptcha\/api\.js|\/sorry\/index\?|google\.[a-z.]+\/sorry\/|sorry\.google\.com|hcaptcha\.com\/1\/api|cf-challenge|challenge-form|id=["']?b_captcha|captcha\.bing|anomaly-modal|Unfortunately, bots use DuckDuckGo too|please complete the following challenge/i,
  },
  // Anti-bot vendors' challenge pages: Cloudflare, DataDome, HUMAN/PerimeterX, Imperva/Incapsula, AWS WAF, Arkose.
  {
    reason: 'captcha',
    pattern: /\/cdn-cgi\/challenge-platform\/|cf-turnstile|cf_chl_opt|captcha-delivery\.com|id=["']?px-captcha|_Incapsula_Resource|awswaf|aws-waf-token|arkoselabs\.com/i,
  },
  {
    reason: 'consent',
    pattern: /action=["']https:\/\/consent\.(google|youtube)\.[a-z.]+|Before you continue to Google|Bevor Sie zu Google weitergehen|Avant d'accéder à Google|Antes de ir a Google|Prima di continuare su Google|Voordat je verdergaat naar Google|Zanim przejdziesz do Google|Antes de continuar para o Google|Innan du fortsätter till Google|Før du fortsætter til Google|Før du fortsetter til Google|consent\.google\.com\/save/i,
  },
  { reason: 'rate_limited', pattern: /too many requests|rate limit(ed)? exceeded|<title>\s*429\b/i },
  // Google's no-JavaScript gate (2025-): a meta refresh to /httpservice/retry/enablejs instead of results.
  { reason: 'unknown', pattern: /\/httpservice\/retry\/enablejs/i },
];

/**
 * The engines' own "no results" sentences. Plain substrings, not regexes: this runs on every page (multi-MB for
 * Google), and a case-insensitive alternation over the whole document cost more than parsing it.
 */
const NO_RESULTS_PHRASES: Record<string, string[]> = {
  google: [
    'did not match any documents', 'did not match any news results', 'did not match any image results',
    'did not match any shopping results', 'No results found for', 'produzierte keine Ergebnisse', 'ergab keine Treffer',
    'Es wurden keine mit deiner Suchanfrage', 'ne correspond à aucun document', 'Aucun document ne correspond',
    'no obtuvo ningún resultado', 'no ha obtenido ningún resultado', 'non ha prodotto risultati', 'Keine Ergebnisse für',
    "It looks like there aren't any great matches for your search", "It looks like there aren't many great matches for your search", 'No se han encontrado resultados para tu búsqueda',
    'não encontrou nenhum documento correspondente', 'heeft geen overeenkomstige documenten opgeleverd',
    'nie pasuje do żadnego dokumentu', 'ничего не найдено', 'hiçbir belgeyle eşleşmedi',
    'に一致する情報は見つかりませんでした', '找不到和您查询的', '找不到符合搜尋字詞', '검색결과가 없습니다',
  ],
  bing: ['There are no results for', 'No results found for', "Il n'y a aucun résultat pour", 'Es gibt keine Ergebnisse für', 'Keine Ergebnisse für', 'No hay resultados para'],
  duckduckgo: ['No results found for', 'No  results.', 'Keine Ergebnisse gefunden', 'Aucun résultat trouvé'],
  searxng: [],
};

/** How engines introduce results for a rewritten query after saying the original one had none. */
const SUBSTITUTION_PHRASES = ['Showing results for', 'Including results for', 'Ergebnisse für', 'Résultats pour', 'Resultados de', 'Risultati per'];

/** Engines for which a page with no results and no marker is an unknown layout (`ok`), not a block. */
const UNMARKED_EMPTY_PAGE_IS_OK = new Set(['google']);

/** Empty-state markup that only means "no results" when the parser found none (DDG also ends result lists with it). */
const EMPTY_STATE_MARKERS: Record<string, RegExp> = {
  duckduckgo: /class=["'][^"']*\bno-results\b/i,
  bing: /class=["'][^"']*\bb_no\b/i,
};

/**
 * The line that closes an engine's result list, in the engine's own words: on a page with no result at all it is
 * the empty state, whatever the page's class names (DuckDuckGo's JavaScript page ends every list, an empty one
 * too, with it; its JavaScript shell without results has no list to close).
 */
const END_OF_LIST_LINES: Record<string, string[]> = {
  duckduckgo: ['No more results.'],
};

/** The end-of-list line as a text node of its own (a line of `visible`, else between two tags of the markup). */
function closesEmptyList(provider: string, html: string, visible?: string): boolean {
  const lines = END_OF_LIST_LINES[provider];
  if (!lines) return false;
  const texts = visible?.split('\n');
  return lines.some((l) => (texts ? texts.some((t) => t.trim() === l) : new RegExp(`>\\s*${l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*<`).test(html)));
}

/** The query as the page shows it: its search box (`name=q`, input or textarea) and its title before the engine's name. */
function queriesOf(html: string): string[] {
  const out = new Set<string>();
  // Tags found by indexOf, then read with a regex: scanning a multi-MB page with the regex alone costs more.
  for (const [tag, read] of [
    ['<input', /^<input\b[^>]*>/i],
    ['<textarea', /^<textarea\b[^>]*>([^<]+)<\/textarea>/i],
  ] as const) {
    for (let at = html.indexOf(tag); at >= 0; at = html.indexOf(tag, at + tag.length)) {
      const m = read.exec(html.slice(at, at + 4000));
      if (!m || !/\sname=["']?q["'\s>]/i.test(m[0].slice(0, m[0].indexOf('>') + 1))) continue;
      const v = tag === '<input' ? /\svalue=(?:"([^"]*)"|'([^']*)')/i.exec(m[0]) : [m[0], m[1]];
      const value = v && (v[1] ?? v[2]);
      if (value) out.add(value);
    }
  }
  const title = /<title[^>]*>([^<]+)<\/title>/i.exec(html)?.[1];
  const head = title && /^(.+?)\s+[-–—|·]\s+[^-–—|·]+$/.exec(title.trim())?.[1];
  if (head) out.add(head);
  return [...out].map(decodeBasicEntities).map((q) => q.trim()).filter((q) => q.length >= 2);
}

function decodeBasicEntities(s: string): string {
  return s.replace(/&quot;|&#34;/g, '"').replace(/&#39;|&#x27;|&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** A pattern for `q` as markup writes it: entities or not, any whitespace. */
function markupPattern(q: string): string {
  return q.split('').map((ch) => {
    if (/\s/.test(ch)) return '\\s+';
    if (ch === '"') return '(?:"|&quot;|&#34;)';
    if (ch === "'") return "(?:'|&#39;|&#x27;|&apos;)";
    if (ch === '&') return '(?:&|&amp;)';
    if (ch === '<') return '(?:<|&lt;)';
    if (ch === '>') return '(?:>|&gt;)';
    return ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }).join('');
}

/**
 * The engines' "no results" statement by its shape rather than its words: on a page that shows no result URL
 * (no `cite`), the query the page was asked for, as a whole, set in emphasis (`em`, `b`, `strong`, possibly
 * inside a span, or a span of its own inside a sentence of spans) once or twice — "Your search - <em>q</em> - did not match…", "There are no results for
 * <strong>q</strong>", in whatever language the page is in. Result pages bold the query too, but in snippets under
 * URLs; a captcha or consent wall does not repeat the query.
 */
export function statesNoResultsByShape(html: string): boolean {
  if (/<cite\b/i.test(html)) return false;
  for (const q of queriesOf(html)) {
    const pat = markupPattern(q);
    const emphasis = new RegExp(`<(em|b|strong)\\b[^>]*>(?:\\s*<span\\b[^>]*>)*\\s*${pat}\\s*(?:<\\/span>\\s*)*<\\/(em|b|strong)>`, 'gi');
    // The no-JavaScript layout sets the query apart by style: a span of its own between the sentence's spans.
    const styled = new RegExp(`<\\/span>\\s*<span\\b[^>]*>\\s*${pat}\\s*<\\/span>\\s*<span\\b`, 'gi');
    const n = (html.match(emphasis)?.length ?? 0) + (html.match(styled)?.length ?? 0);
    if (n >= 1 && n <= 2) return true;
  }
  return false;
}

/** A query's letters and digits only, lower case: the query and its loosened rewrite (quotes dropped, words split). */
function looseForm(q: string): string {
  return q.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function decodeParam(v: string): string {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return v;
  }
}

/** The query as text of its own in `markup` (not in a link, not an attribute), inside a line with other words. */
function statesQuery(markup: string, q: string): boolean {
  for (const m of markup.matchAll(new RegExp(`>([^<]*)${markupPattern(q)}`, 'gi'))) {
    const at = (m.index ?? 0) + 1 + m[1].length;
    if (markup.lastIndexOf('<a ', at) > markup.lastIndexOf('</a>', at)) continue;
    // The line so far: back to the last block boundary, tags dropped.
    const before = markup.slice(Math.max(0, at - 400), at);
    const cut = Math.max(...['<div', '<p', '<h1', '<h2', '<h3', '<h4', '<li', '<br', '<td', '</div>', '</p>'].map((t) => before.lastIndexOf(t)));
    const line = before.slice(cut < 0 ? 0 : cut).replace(/^<[^>]*>/, '').replace(/<[^>]*>/g, ' ');
    if (/\p{L}{2,}/u.test(line)) return true;
  }
  return false;
}

/**
 * The engines' "no results for Q — results for Q′ instead" by its shape rather than its words, for a page with
 * results: before the first result, a line that states the query the page was asked for (as text, not a link),
 * and right after it a link to the engine's search for a loosened form of it — the same letters and digits with
 * quotes, spaces or case changed ("Find x" → find x, asdfsdfasd → asdf sdfasd). A spelling correction is not one
 * (other letters; and it shows the original query as a link), nor are related searches (after the results).
 * `firstResult`: the page's first result link; the announcement must come before its host appears in the markup.
 */
export function announcesRewrittenQuery(html: string, firstResult: string): boolean {
  const host = /^https?:\/\/([^/?#]+)/i.exec(firstResult)?.[1]?.toLowerCase();
  const end = host ? html.indexOf(host) : -1;
  if (end < 0) return false;
  const start = Math.max(0, html.lastIndexOf('<body', end));
  // Searches of the engine linked before the first result (a `q` parameter): tabs, suggestions, rewrites. The
  // tabs all search the query itself: a page with one searched value links no rewrite (most pages; no more work).
  const linked = new Map<string, number>();
  for (let at = html.indexOf('q=', start); at >= 0 && at < end; at = html.indexOf('q=', at + 2)) {
    const before = html.charCodeAt(at - 1);
    if (before !== 0x3f && before !== 0x26 && before !== 0x3b) continue; // ? & ;(from &amp;)
    let stop = at + 2;
    while (stop < end && !'&"\'#> '.includes(html[stop])) stop++;
    const raw = html.slice(at + 2, stop);
    // The last link to each search before the first result: a rewrite notice sits right above the results.
    if (raw.length <= 1000) linked.set(raw, at);
  }
  if (linked.size < 2) return false;
  const queries = queriesOf(html.slice(0, end)).map((q) => ({ q, loose: looseForm(q) })).filter((x) => x.loose.length >= 3);
  for (const [raw, at] of linked) {
    const rewrite = decodeBasicEntities(decodeParam(raw)).trim();
    const loose = looseForm(rewrite);
    for (const { q } of queries.filter((x) => x.loose === loose && x.q !== rewrite)) {
      if (statesQuery(html.slice(Math.max(start, at - 1500), at), q)) return true;
    }
  }
  return false;
}

/** What the rewritten-query check reads: the page's first result link, and its markup without scripts and styles. */
export interface RewriteCheck {
  firstResult: string;
  markup: string;
}

/** Block reason from the page markup, if it is a block page. */
export function blockReason(html: string): BlockReason | null {
  for (const m of BLOCK_MARKERS) if (m.pattern.test(html)) return m.reason;
  return null;
}

export function saysNoResults(provider: string, html: string): boolean {
  return (NO_RESULTS_PHRASES[provider] ?? []).some((p) => html.includes(p));
}

/**
 * The verdict for a parsed page. The engine's own "no results" statement wins, even when it then shows results for
 * a rewritten query ("No results found for "x". Showing results for x"): those belong to another query, so the
 * caller gets `no_results` with the substitute results attached. Otherwise results mean `ok`; no results mean a
 * block page when a marker says so, and, when nothing does, `ok` for Google (an unknown layout, flagged by the
 * parser) and blocked/'unknown' for the other engines.
 */
export function pageVerdict(provider: string, html: string, resultCount: number, visible?: string, rewrite?: RewriteCheck): SerpVerdict {
  // `visible`: the page's text when the caller has it — far less to search than the markup, and no i18n strings
  // from scripts that could contain a "no results" sentence.
  const text = visible ?? html;
  if (resultCount > 0) {
    // With results on the page, a "no results" sentence only counts next to a substitution notice; alone it may be
    // a snippet quoting such a sentence. In a language we carry no sentence for, the notice's shape counts.
    if (saysNoResults(provider, text) && SUBSTITUTION_PHRASES.some((p) => text.includes(p))) return { kind: 'no_results' };
    return rewrite && announcesRewrittenQuery(rewrite.markup, rewrite.firstResult) ? { kind: 'no_results' } : { kind: 'ok' };
  }
  if (saysNoResults(provider, text)) return { kind: 'no_results' };
  const reason = blockReason(html);
  // A consent dialog can sit over a real result page; the page's own statement of no results wins over it.
  if ((!reason || reason === 'consent') && statesNoResultsByShape(html)) return { kind: 'no_results' };
  if (!reason && EMPTY_STATE_MARKERS[provider]?.test(html)) return { kind: 'no_results' };
  if (!reason && closesEmptyList(provider, html, visible)) return { kind: 'no_results' };
  if (!reason && UNMARKED_EMPTY_PAGE_IS_OK.has(provider)) return { kind: 'ok' };
  return { kind: 'blocked', reason: reason ?? 'unknown' };
}

/** Verdict for a page on which the parser found nothing (or could not parse). */
export function verdictWithoutResults(provider: string, html: string): SerpVerdict {
  return pageVerdict(provider, html, 0);
}
