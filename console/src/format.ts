/** Small formatting helpers shared by the pages. */
import type { UsageDayView } from '#contracts';
import type { Series } from './chart.js';
import { ERROR_COLOUR } from './chart.js';

const integer = new Intl.NumberFormat('en');
export const n = (value: number) => integer.format(value);
export const when = (iso: string | null) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—');
export const day = (iso: string) => iso.slice(0, 10);

/** Every UTC day from `since` to today, so days without calls show as zero. */
export function daysFrom(sinceIso: string, now = new Date()): string[] {
  const out: string[] = [];
  for (let t = Date.parse(sinceIso); t <= now.getTime(); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Credits per day, one series per endpoint. */
export function creditSeries(days: string[], rows: UsageDayView[]): Series[] {
  const endpoints = [...new Set(rows.map((r) => r.endpoint))].sort();
  return endpoints.map((endpoint) => ({
    label: endpoint,
    values: days.map((d) => rows.filter((r) => r.day === d && r.endpoint === endpoint).reduce((s, r) => s + r.credits, 0)),
  }));
}

/** Calls per day: successful ones and errors apart. */
export function callSeries(days: string[], rows: UsageDayView[]): Series[] {
  const sum = (d: string, pick: (r: UsageDayView) => number) => rows.filter((r) => r.day === d).reduce((s, r) => s + pick(r), 0);
  return [
    { label: 'successful', values: days.map((d) => sum(d, (r) => r.calls - r.errors)), colour: '#2a9d8f' },
    { label: 'errors', values: days.map((d) => sum(d, (r) => r.errors)), colour: ERROR_COLOUR },
  ];
}

/** Totals per endpoint over the window. */
export function byEndpoint(rows: UsageDayView[]): Array<{ endpoint: string; calls: number; errors: number; credits: number }> {
  const map = new Map<string, { endpoint: string; calls: number; errors: number; credits: number }>();
  for (const r of rows) {
    const e = map.get(r.endpoint) ?? { endpoint: r.endpoint, calls: 0, errors: 0, credits: 0 };
    e.calls += r.calls;
    e.errors += r.errors;
    e.credits += r.credits;
    map.set(r.endpoint, e);
  }
  return [...map.values()].sort((a, b) => b.credits - a.credits || a.endpoint.localeCompare(b.endpoint));
}
