/** Parameter types that several endpoints share. */
import { z } from 'zod';
import { isCountryCode } from '../countries.js';

/** An ISO 3166-1 alpha-2 country code, any case in, lower case out. */
export const countryCode = (name: string) =>
  z.string().transform((value, ctx) => {
    const code = value.trim().toLowerCase();
    if (!/^[a-z]{2}$/.test(code) || !isCountryCode(code)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an ISO 3166-1 alpha-2 country code such as us, gb or de` });
      return z.NEVER;
    }
    return code;
  });
