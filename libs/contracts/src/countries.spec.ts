import { describe, expect, it } from '@jest/globals';
import { countryNamed } from './countries.js';

describe('countryNamed', () => {
  it('reads a country named in English, whatever its case, accents and punctuation', () => {
    expect(countryNamed('Germany')).toBe('de');
    expect(countryNamed('united states')).toBe('us');
    expect(countryNamed(' United Kingdom ')).toBe('gb');
    expect(countryNamed("Côte d'Ivoire")).toBe('ci');
    expect(countryNamed('Cote d’Ivoire')).toBe('ci');
    expect(countryNamed('Bosnia & Herzegovina')).toBe('ba');
    expect(countryNamed('The Netherlands')).toBe('nl');
  });

  it('takes the names people write besides the official one, and a code', () => {
    expect(countryNamed('USA')).toBe('us');
    expect(countryNamed('UK')).toBe('gb');
    expect(countryNamed('England')).toBe('gb');
    expect(countryNamed('Turkey')).toBe('tr');
    expect(countryNamed('Czech Republic')).toBe('cz');
    expect(countryNamed('DE')).toBe('de');
  });

  it('is undefined for what names no country', () => {
    for (const name of ['Atlantis', '', 'California', 'zz', 'Europe', 'Deutschland']) expect(countryNamed(name)).toBeUndefined();
  });
});
