/**
 * Perturbations of a result page that imitate how pages of other years and markets differ from the dev pages:
 * class names and ids renamed (a new build of the engine's CSS) or gone, extra wrapper elements, result links behind
 * the engine's redirect, and the page's labels and messages in a language the parsers carry no strings for. Plain
 * string rewrites of the markup, deterministic, used by the robustness report (robustness.ts).
 */
import { createHash } from 'node:crypto';

export type Engine = 'google' | 'bing' | 'duckduckgo';

export const PERTURBATIONS = ['renamed', 'stripped', 'wrapped', 'redirected', 'translated', 'all'] as const;
/** Harder than any layout seen so far, reported apart: titles without heading tags (h2/h3 and role=heading gone). */
export const STRESS = ['headingless'] as const;
export type Perturbation = (typeof PERTURBATIONS)[number] | (typeof STRESS)[number];

const ATTR = /(\s)(class|id)=("([^"]*)"|'([^']*)'|([^\s>"']+))/gi;

function hashed(token: string): string {
  return `x${createHash('sha1').update(token).digest('hex').slice(0, 6)}`;
}

/** Every class and id token replaced by a stable meaningless name (same token, same name). */
export function renameClassesAndIds(html: string): string {
  return html.replace(ATTR, (_m, sp: string, name: string, _v, dq?: string, sq?: string, bare?: string) => {
    const value = (dq ?? sq ?? bare ?? '').split(/\s+/).filter(Boolean).map(hashed).join(' ');
    return `${sp}${name}="${value}"`;
  });
}

export function stripClassesAndIds(html: string): string {
  // The whitespace before the attribute stays: the next attribute may follow the value with no space of its own.
  return html.replace(ATTR, '$1');
}

/** Every `div` and `li` gets an extra `div` inside it, around its content (one more level in every card). */
export function addWrappers(html: string): string {
  return html.replace(/<(div|li)(\s[^>]*)?>/gi, '$&<div>').replace(/<\/(div|li)\s*>/gi, '</div>$&');
}

function bingTarget(url: string): string {
  return `https://www.bing.com/ck/a?!&&p=0f0f&ptn=3&hsh=3&u=a1${Buffer.from(url).toString('base64url')}&ntb=1`;
}

/** Outside result links wrapped in the engine's own redirect (Google `/url?q=`, Bing `ck/a?u=a1…`, DDG `l/?uddg=`). */
export function redirectLinks(html: string, engine: Engine): string {
  const own = engine === 'google' ? /(^|\.)google\.|gstatic\./ : engine === 'bing' ? /(^|\.)bing\.com|microsoft|msn\.com/ : /duckduckgo\.com/;
  return html.replace(/(<a\b[^>]*?\shref=)("|')(https?:\/\/[^"']+)\2/gi, (m, pre: string, q: string, raw: string) => {
    const url = raw.replace(/&amp;/g, '&');
    const host = /^https?:\/\/([^/?#]+)/i.exec(url)?.[1] ?? '';
    if (own.test(host)) return m;
    const enc = encodeURIComponent(url);
    const wrapped = engine === 'google' ? `/url?q=${enc}&amp;sa=U&amp;ved=2ahUKE&amp;usg=AOvVaw0`
      : engine === 'bing' ? bingTarget(url).replace(/&/g, '&amp;')
        : `//duckduckgo.com/l/?uddg=${enc}&amp;rut=abc`;
    return `${pre}${q}${wrapped}${q}`;
  });
}

/**
 * The engines' labels and messages (ad labels, section headings, menu entries, "no results" and "showing results
 * for" sentences, in every language the parsers know) put into Swedish, for which the parsers carry no strings.
 * Whole text nodes for labels; the sentences wherever they occur in text.
 */
const LABELS: Array<[RegExp, string]> = [
  [/^(Ad|Ads|Anzeige|Annonce|Anuncio|Annuncio|Publicidad)$/i, 'Annons'],
  [/^(Sponsored|Sponsorisé|Gesponsert|Patrocinado)$/i, 'Sponsrad'],
  [/^(Cached|Im Cache)$/i, 'Cachad'],
  [/^(Similar|Ähnliche Seiten)$/i, 'Liknande'],
  [/^(Translate this page|Diese Seite übersetzen|Traduire cette page)$/i, 'Översätt den här sidan'],
  [/^(People also ask|Ähnliche Fragen|Autres questions posées)$/i, 'Andra frågar också'],
  [/^(Top stories|À la une|Schlagzeilen)$/i, 'Huvudnyheter'],
  [/^(Videos|Vidéos)$/i, 'Filmer'],
  [/^(Images|Bilder)$/i, 'Bilder'],
  [/^(News|Actualités|Nachrichten)$/i, 'Nyheter'],
  [/^(Related searches|Recherches associées|Ähnliche Suchanfragen|Related Searches)$/i, 'Relaterade sökningar'],
  [/^(Interesting finds|Twitter|Perspectives|Recipes)$/i, 'Intressanta fynd'],
  [/^(Next|Suivant|Weiter|Siguiente)$/i, 'Nästa'],
  [/^(Previous|Précédent|Zurück|Anterior)$/i, 'Föregående'],
];

const SENTENCES: Array<[RegExp, string]> = [
  [/did not match any (documents|news results|image results|shopping results)/gi, 'matchade inga dokument'],
  [/It looks like there aren't any great matches for your search/gi, 'Det verkar inte finnas några bra träffar för din sökning'],
  [/(There are no results for|No results found for|No results for|Keine Ergebnisse für|Es gibt keine Ergebnisse für|Il n'y a aucun résultat pour|No hay resultados para|Aucun résultat trouvé|Keine Ergebnisse gefunden)/gi, 'Inga resultat hittades för'],
  [/No {1,2}results\./g, 'Inga resultat.'],
  [/(produzierte keine Ergebnisse|ergab keine Treffer|ne correspond à aucun document|no obtuvo ningún resultado|non ha prodotto risultati)/gi, 'gav inga träffar'],
  [/(Showing results for|Including results for|Résultats pour|Ergebnisse für|Resultados de|Risultati per)/g, 'Visar resultat för'],
  [/(Did you mean|Meinten Sie|Essayez avec cette orthographe|Quizás quisiste decir)/gi, 'Menade du'],
  [/Search instead for/gi, 'Sök i stället efter'],
  [/Suggestions:/g, 'Förslag:'],
  [/(About |Ungefähr |Environ )?([\d.,\s]+) results/g, 'Ungefär $2 resultat'],
];

export function translateLabels(html: string): string {
  // Text nodes only: between a tag's end and the next tag's start.
  return html.replace(/>([^<]+)</g, (m, text: string) => {
    const t = text.trim();
    if (!t) return m;
    for (const [re, sv] of LABELS) if (re.test(t)) return `>${text.replace(t, sv)}<`;
    let out = text;
    for (const [re, sv] of SENTENCES) out = out.replace(re, sv);
    return out === text ? m : `>${out}<`;
  });
}

export function perturb(html: string, engine: Engine, p: Perturbation): string {
  switch (p) {
    case 'renamed': return renameClassesAndIds(html);
    case 'stripped': return stripClassesAndIds(html);
    case 'wrapped': return addWrappers(html);
    case 'redirected': return redirectLinks(html, engine);
    case 'translated': return translateLabels(html);
    case 'headingless': return html.replace(/<(\/?)h[23]\b/gi, '<$1div').replace(/\srole=["']heading["']/gi, '').replace(/\saria-level=["']\d["']/gi, '');
    case 'all': return translateLabels(redirectLinks(addWrappers(renameClassesAndIds(html)), engine));
  }
}
