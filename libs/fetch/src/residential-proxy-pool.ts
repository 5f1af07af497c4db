/**
 * The residential proxy pool behind /headful-browser: per-country lists (`RESIDENTIAL_PROXIES`, the syntax of
 * `PROXIES`) and/or a provider URL template (`RESIDENTIAL_PROXY_URL`, `{country}` and `{session}` placeholders, as
 * residential providers take them in the username). Each attempt leases one proxy with a fresh session id (sticky for
 * that attempt: one exit IP per page load) and reports how it went; a proxy that failed or was blocked rests for
 * `restMs` and loses health, so the next attempt goes elsewhere. Credentials live only in the ProxyInfo handed to
 * the browser, never in `label` (which is what logs may show).
 */
import { randomBytes } from 'node:crypto';
import { residentialCoverage, type ProxyCoverage, type ProxyInfo } from '#contracts';
import { ANY_COUNTRY, StaticProxyPool } from './proxy-pool.js';

export type ProxyOutcome = 'ok' | 'blocked' | 'failed';

export interface ProxyLease {
  proxy: ProxyInfo;
  /** Identifies the pool entry without credentials (`http://host:port`, or `template`), safe for logs. */
  label: string;
  report(outcome: ProxyOutcome): void;
}

interface Candidate {
  key: string;
  label: string;
  /** Builds the proxy for one attempt (a template fills in country and a fresh session). */
  build(country: string, session: string): ProxyInfo;
}

interface Health {
  score: number;
  restUntil: number;
}

export interface ResidentialProxyPoolOptions {
  /** `us=http://user:pass@host:port|…,de=…,*=…` */
  lists?: string;
  /** `http://user-country-{country}-session-{session}:pass@host:port` */
  template?: string;
  restMs?: number;
  now?: () => number;
}

export class ResidentialProxyPool {
  private readonly health = new Map<string, Health>();
  private readonly byCountry = new Map<string, Candidate[]>();
  private readonly template: Candidate | null;
  private readonly coverage: ProxyCoverage;
  private readonly restMs: number;
  private readonly now: () => number;
  private turn = 0;

  constructor(options: ResidentialProxyPoolOptions) {
    this.restMs = options.restMs ?? 60_000;
    this.now = options.now ?? Date.now;
    const lists = StaticProxyPool.parse(options.lists ?? '');
    for (const country of [...lists.countries(), ...(lists.servesAnyCountry() ? [ANY_COUNTRY] : [])]) {
      const candidates = lists.entries(country).map((entry): Candidate => ({
        key: `${country}|${entry.server}|${entry.username ?? ''}`,
        label: entry.server,
        build: (wanted) => ({ ...entry, country: wanted }),
      }));
      this.byCountry.set(country, dedupe(candidates));
    }
    this.template = options.template ? templateCandidate(options.template) : null;
    this.coverage = residentialCoverage(options.lists ?? '', options.template);
  }

  /** Whether any proxy can serve `country` (lower-case alpha-2). */
  serves(country: string): boolean {
    return this.coverage.serves(country);
  }

  /** For messages: the configured countries, or "any country" with a template. */
  describe(): string {
    return this.coverage.describe();
  }

  /**
   * A proxy for one attempt, preferring entries not in `avoid` (already tried for this URL), not resting, and with
   * the best health; null when nothing serves the country.
   */
  lease(country: string, avoid: ReadonlySet<string> = new Set()): (ProxyLease & { key: string }) | null {
    const c = country.toLowerCase();
    const candidates = [...(this.byCountry.get(c) ?? this.byCountry.get(ANY_COUNTRY) ?? []), ...(this.template ? [this.template] : [])];
    if (candidates.length === 0) return null;
    const now = this.now();
    const rank = (candidate: Candidate) => {
      const h = this.health.get(candidate.key) ?? { score: 1, restUntil: 0 };
      // A template mints a new exit per session, so it never counts as "already tried".
      const tried = candidate !== this.template && avoid.has(candidate.key) ? 1 : 0;
      const resting = h.restUntil > now ? 1 : 0;
      return { tried, resting, score: h.score };
    };
    const start = this.turn++ % candidates.length;
    const rotated = [...candidates.slice(start), ...candidates.slice(0, start)];
    const best = rotated
      .map((candidate, order) => ({ candidate, order, ...rank(candidate) }))
      .sort((a, b) => a.tried - b.tried || a.resting - b.resting || b.score - a.score || a.order - b.order)[0].candidate;
    const session = randomBytes(6).toString('hex');
    return {
      key: best.key,
      label: best.label,
      proxy: best.build(c, session),
      report: (outcome) => this.record(best.key, outcome),
    };
  }

  private record(key: string, outcome: ProxyOutcome): void {
    const h = this.health.get(key) ?? { score: 1, restUntil: 0 };
    if (outcome === 'ok') {
      h.score = Math.min(1, h.score + 0.2);
    } else {
      h.score = Math.max(0, h.score * 0.5);
      h.restUntil = this.now() + this.restMs;
    }
    this.health.set(key, h);
  }

  /** Health per country, for metrics. */
  healthByCountry(): CountryHealth[] {
    const now = this.now();
    const groups = new Map<string, Candidate[]>(this.byCountry);
    if (this.template) groups.set(ANY_COUNTRY, [...(groups.get(ANY_COUNTRY) ?? []), this.template]);
    return [...groups].map(([country, candidates]) => {
      const states = candidates.map((c) => this.health.get(c.key) ?? { score: 1, restUntil: 0 });
      return {
        country,
        configured: states.length,
        health: states.reduce((sum, h) => sum + h.score, 0) / Math.max(1, states.length),
        resting: states.filter((h) => h.restUntil > now).length,
      };
    });
  }

  /** Health per entry label (no credentials), for tests and metrics. */
  snapshot(): Array<{ label: string; score: number; resting: boolean }> {
    const now = this.now();
    const all = [...this.byCountry.values()].flat().concat(this.template ? [this.template] : []);
    return all.map((c) => {
      const h = this.health.get(c.key) ?? { score: 1, restUntil: 0 };
      return { label: c.label, score: h.score, resting: h.restUntil > now };
    });
  }
}

/** Per country (`*` for any country: the template and catch-all entries): proxies, mean health, how many rest. */
export interface CountryHealth {
  country: string;
  configured: number;
  health: number;
  resting: number;
}

function dedupe(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => (seen.has(c.key) ? false : (seen.add(c.key), true)));
}

/** Validates the template once; never echoes it (it holds credentials). */
function templateCandidate(template: string): Candidate {
  if (!template.includes('{session}')) throw new Error('RESIDENTIAL_PROXY_URL must contain {session} (sticky sessions per attempt)');
  let probe: URL;
  try {
    probe = new URL(template.replaceAll('{country}', 'us').replaceAll('{session}', 'probe'));
  } catch {
    throw new Error('RESIDENTIAL_PROXY_URL is not a valid proxy URL template');
  }
  if (probe.protocol !== 'http:' && probe.protocol !== 'https:') throw new Error('RESIDENTIAL_PROXY_URL: the scheme must be http or https');
  return {
    key: 'template',
    label: `template ${probe.protocol}//${probe.host}`,
    build: (country, session) => {
      const url = new URL(template.replaceAll('{country}', country).replaceAll('{session}', session));
      const info: ProxyInfo = { server: `${url.protocol}//${url.host}`, country };
      if (url.username !== '') info.username = decodeURIComponent(url.username);
      if (url.password !== '') info.password = decodeURIComponent(url.password);
      return info;
    },
  };
}
