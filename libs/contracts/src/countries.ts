/** ISO 3166-1 alpha-2 country codes (all 249 officially assigned), lower case. */
const CODES = `
  ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be
  bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz ca cc cd
  cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm
  do dz ec ee eg eh er es et fi fj fk fm fo fr ga gb gd ge gf
  gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu
  id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn
  kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me
  mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na
  nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm
  pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si
  sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk
  tl tm tn to tr tt tv tw tz ua ug um us uy uz va vc ve vg vi
  vn vu wf ws ye yt za zm zw
`
  .trim()
  .split(/\s+/);

const COUNTRY_SET: ReadonlySet<string> = new Set(CODES);

export function isCountryCode(value: string): boolean {
  return COUNTRY_SET.has(value.toLowerCase());
}

/** The main language of a country, for Accept-Language; English where unlisted. */
const PRIMARY_LANGUAGE: Readonly<Record<string, string>> = {
  ar: 'es', at: 'de', be: 'nl', bg: 'bg', bo: 'es', br: 'pt', ch: 'de', cl: 'es', cn: 'zh', co: 'es', cr: 'es',
  cz: 'cs', de: 'de', dk: 'da', do: 'es', ec: 'es', ee: 'et', eg: 'ar', es: 'es', fi: 'fi', fr: 'fr', gr: 'el',
  gt: 'es', hk: 'zh', hr: 'hr', hu: 'hu', id: 'id', il: 'he', it: 'it', jp: 'ja', kr: 'ko', lt: 'lt', lu: 'fr',
  lv: 'lv', ma: 'ar', mx: 'es', my: 'ms', nl: 'nl', no: 'nb', pe: 'es', pl: 'pl', pt: 'pt', py: 'es', ro: 'ro',
  rs: 'sr', ru: 'ru', sa: 'ar', se: 'sv', si: 'sl', sk: 'sk', th: 'th', tr: 'tr', tw: 'zh', ua: 'uk', uy: 'es',
  ve: 'es', vn: 'vi', ae: 'ar',
};

export function primaryLanguage(country: string): string {
  return PRIMARY_LANGUAGE[country.toLowerCase()] ?? 'en';
}

/** Other names people write for a country (English names come from ICU). */
const NAME_ALIASES: Readonly<Record<string, string>> = {
  usa: 'us', 'united states of america': 'us', america: 'us', uk: 'gb', 'great britain': 'gb', britain: 'gb',
  england: 'gb', scotland: 'gb', wales: 'gb', 'northern ireland': 'gb', korea: 'kr', 'republic of korea': 'kr',
  'czech republic': 'cz', turkey: 'tr', holland: 'nl', 'ivory coast': 'ci', 'russian federation': 'ru', uae: 'ae',
};

const folded = (name: string): string =>
  name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, ' ').trim().replace(/^the /, '');

let byName: Map<string, string> | undefined;

/**
 * The ISO 3166-1 alpha-2 code of a country named in English ("Germany", "United States", "Côte d'Ivoire", "USA") or
 * by its code; undefined when the name is no country.
 */
export function countryNamed(name: string): string | undefined {
  const key = folded(name);
  if (/^[a-z]{2}$/.test(key)) return key === 'uk' ? 'gb' : COUNTRY_SET.has(key) ? key : undefined;
  if (!byName) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    byName = new Map(Object.entries(NAME_ALIASES).map(([alias, code]) => [folded(alias), code]));
    for (const code of CODES) {
      const english = names.of(code.toUpperCase());
      if (english && !byName.has(folded(english))) byName.set(folded(english), code);
    }
  }
  return byName.get(key);
}
