/**
 * OSM `opening_hours` values → the §2.3 per-weekday object, via the `opening_hours` library (opening-hours/
 * opening_hours.js, the reference implementation of the tag syntax). The value is evaluated over one fixed
 * reference week, Monday 2024-03-04 to Sunday 2024-03-10 (no DST change in any large time zone, no fixed-date public
 * holiday), so the same value always gives the same object. No location is passed: public and school holidays
 * (`PH`, `SH`) are not evaluated, and `sunrise`/`sunset` take the library's default times.
 */
import OpeningHours from 'opening_hours';
import { WEEKDAYS } from './types.js';

// Library defaults (time-range mode, warnings severity 4) except the tag key and an English locale for comments.
const CONF = { tag_key: 'opening_hours', locale: 'en', mode: undefined, map_value: undefined, warnings_severity: undefined };
const REF_MONDAY = { y: 2024, m: 2, d: 4 }; // month 0-based: 4 March 2024

/** `9 AM`, `5:30 PM`, `12 AM` (midnight), `12 PM` (noon). */
export function clockText(date: Date): string {
  const h = date.getHours();
  const m = date.getMinutes();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${m ? `:${String(m).padStart(2, '0')}` : ''} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * Per-weekday text ranges, e.g. `{ Monday: '9 AM–5 PM', …, Sunday: 'Closed' }`; `Open 24 hours` for a day open
 * throughout. An interval that runs past midnight belongs to the day it starts on (`Fr 18:00-02:00` → Friday
 * `6 PM–2 AM`). Undefined when the value is malformed (the library throws) or says nothing about the reference week
 * (e.g. `Jul-Aug …` only). Never throws.
 */
export function weeklyOpeningHours(value: string): Record<string, string> | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const oh = new OpeningHours(value.trim(), null, CONF);
    // Local dates on purpose: the library works in the process's local time, and so does clockText.
    const day = (i: number) => new Date(REF_MONDAY.y, REF_MONDAY.m, REF_MONDAY.d + i);
    const intervals = oh.getOpenIntervals(day(-1), day(8));
    if (intervals.length === 0 && !oh.isWeekStable()) return undefined;
    const out: Record<string, string> = {};
    WEEKDAYS.forEach((name, i) => {
      const start = day(i).getTime();
      const end = day(i + 1).getTime();
      if (intervals.some(([from, to]) => from.getTime() <= start && to.getTime() >= end)) {
        out[name] = 'Open 24 hours';
        return;
      }
      const own = intervals.filter(([from]) => from.getTime() >= start && from.getTime() < end);
      if (own.length === 0) {
        out[name] = 'Closed';
        return;
      }
      const ranges = own.map(([from, to]) => `${clockText(from)}–${clockText(to)}`);
      const comments = [...new Set(own.map(([, , , comment]) => comment).filter((c): c is string => !!c))];
      out[name] = ranges.join(', ') + (comments.length > 0 ? ` (${comments.join('; ')})` : '');
    });
    return out;
  } catch {
    return undefined;
  }
}

