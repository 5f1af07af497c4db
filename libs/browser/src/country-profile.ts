/**
 * What a browser in a country looks like from inside the page: its locale (navigator.language, Intl), timezone
 * and Accept-Language. A residential exit in Germany with an en-US, America/New_York browser is itself a tell.
 */
import { acceptLanguage, primaryLanguage } from '#contracts';

/** The most populous timezone of a country; UTC where unlisted. */
const TIMEZONES: Readonly<Record<string, string>> = {
  us: 'America/New_York', ca: 'America/Toronto', mx: 'America/Mexico_City', br: 'America/Sao_Paulo', ar: 'America/Argentina/Buenos_Aires',
  cl: 'America/Santiago', co: 'America/Bogota', pe: 'America/Lima', ve: 'America/Caracas', uy: 'America/Montevideo', py: 'America/Asuncion',
  bo: 'America/La_Paz', ec: 'America/Guayaquil', cr: 'America/Costa_Rica', gt: 'America/Guatemala', do: 'America/Santo_Domingo',
  gb: 'Europe/London', ie: 'Europe/Dublin', fr: 'Europe/Paris', de: 'Europe/Berlin', at: 'Europe/Vienna', ch: 'Europe/Zurich',
  it: 'Europe/Rome', es: 'Europe/Madrid', pt: 'Europe/Lisbon', nl: 'Europe/Amsterdam', be: 'Europe/Brussels', lu: 'Europe/Luxembourg',
  dk: 'Europe/Copenhagen', se: 'Europe/Stockholm', no: 'Europe/Oslo', fi: 'Europe/Helsinki', pl: 'Europe/Warsaw', cz: 'Europe/Prague',
  sk: 'Europe/Bratislava', hu: 'Europe/Budapest', ro: 'Europe/Bucharest', bg: 'Europe/Sofia', gr: 'Europe/Athens', hr: 'Europe/Zagreb',
  si: 'Europe/Ljubljana', rs: 'Europe/Belgrade', ee: 'Europe/Tallinn', lv: 'Europe/Riga', lt: 'Europe/Vilnius', ua: 'Europe/Kyiv',
  ru: 'Europe/Moscow', tr: 'Europe/Istanbul', il: 'Asia/Jerusalem', ae: 'Asia/Dubai', sa: 'Asia/Riyadh', eg: 'Africa/Cairo',
  ma: 'Africa/Casablanca', za: 'Africa/Johannesburg', ng: 'Africa/Lagos', ke: 'Africa/Nairobi', in: 'Asia/Kolkata', pk: 'Asia/Karachi',
  bd: 'Asia/Dhaka', th: 'Asia/Bangkok', vn: 'Asia/Ho_Chi_Minh', my: 'Asia/Kuala_Lumpur', sg: 'Asia/Singapore', id: 'Asia/Jakarta',
  ph: 'Asia/Manila', cn: 'Asia/Shanghai', hk: 'Asia/Hong_Kong', tw: 'Asia/Taipei', kr: 'Asia/Seoul', jp: 'Asia/Tokyo',
  au: 'Australia/Sydney', nz: 'Pacific/Auckland',
};

export interface CountryProfile {
  locale: string;
  timezoneId: string;
  acceptLanguage: string;
}

export function countryProfile(country: string): CountryProfile {
  const c = country.toLowerCase();
  const language = primaryLanguage(c);
  return {
    locale: `${language}-${c.toUpperCase()}`,
    timezoneId: TIMEZONES[c] ?? 'UTC',
    acceptLanguage: acceptLanguage(language, c),
  };
}
