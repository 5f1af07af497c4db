/** Parameter types that several endpoints share. */
import { z } from 'zod';
import { isCountryCode } from '../countries.js';

/**
 * `uk` is not an ISO 3166-1 code but is reserved for the United Kingdom, and the engines read `gl=uk` as `gb`
 * (Google takes both): it is taken as `gb`, so a country written the way engines accept it works everywhere.
 */
const ALIASES: Readonly<Record<string, string>> = { uk: 'gb' };

/** An ISO 3166-1 alpha-2 country code, any case in, lower case out (`uk` → `gb`). */
export const countryCode = (name: string) =>
  z.string().transform((value, ctx) => {
    const given = value.trim().toLowerCase();
    const code = ALIASES[given] ?? given;
    if (!/^[a-z]{2}$/.test(code) || !isCountryCode(code)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an ISO 3166-1 alpha-2 country code such as us, gb or de` });
      return z.NEVER;
    }
    return code;
  });

/** Google's freshness filters (`tbs=qdr:…`): the past hour, day, week, month or year. */
export const FRESHNESS = ['qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y'] as const;
export type Freshness = (typeof FRESHNESS)[number];

/** A freshness filter as Google writes it (`qdr:w`); empty means none. */
export const freshness = (name: string) =>
  z.string().transform((value, ctx): Freshness | undefined => {
    const given = value.trim();
    if (given === '') return undefined;
    if (!(FRESHNESS as readonly string[]).includes(given)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be one of ${FRESHNESS.join(', ')}` });
      return z.NEVER;
    }
    return given as Freshness;
  });
