/**
 * Probes for the REST endpoints' query strings. The schema's verdict decides which account sends a case: refused
 * inputs go with a funded key (so a refusal that slipped through would run work and charge), accepted ones with a
 * key whose balance is 0 (so they stop at the reservation with the endpoint's documented "not enough credits"
 * answer, and nothing upstream is ever called).
 */
import { ErrorCode, type ApiEndpoint, type ApiLimits } from '#contracts';
import { codeOf, messageOf, type Probe } from './probes.js';
import { queryCases, verdictOf, type QueryCase } from './query-cases.js';
import { sendRequest } from './raw-http.js';

export interface ProbeKeys {
  /** An account with credits: only inputs that must be refused are sent with it. */
  funded: string;
  /** An account with a balance of 0: valid inputs end at the reservation, charging nothing. */
  broke: string;
}

/** The codes an endpoint documents for a balance that does not cover the call. */
export function insufficientCodes(endpoint: ApiEndpoint): Set<string> {
  return new Set(
    endpoint.errors
      .filter((e) => e.status === 402 || e.status === 429)
      .flatMap((e) => e.codes)
      .filter((code) => code !== ErrorCode.CONCURRENCY_LIMIT),
  );
}

function probeFor(c: QueryCase, limits: ApiLimits, port: number, keys: ProbeKeys): Probe {
  const path = `${c.endpoint.path}?${c.query}`;
  const label = `GET ${c.label}`;
  if (c.oversize) {
    return {
      label,
      send: () => sendRequest(port, 'GET', path, { 'x-api-key': keys.funded }),
      check: (a) => (a.status === 414 && codeOf(a) === ErrorCode.INVALID_REQUEST ? null : 'expected 414 INVALID_REQUEST for an overlong URL'),
    };
  }
  const verdict = verdictOf(c.endpoint, limits, c.query);
  if ('crash' in verdict) {
    return {
      label,
      send: () => sendRequest(port, 'GET', path, { 'x-api-key': keys.funded }),
      check: () => `the parameter schema throws instead of refusing: ${verdict.crash.split('\n').slice(0, 2).join(' ')}`,
    };
  }
  if (!verdict.valid) {
    return {
      label,
      send: () => sendRequest(port, 'GET', path, { 'x-api-key': keys.funded }),
      check: (a) => {
        if (a.status !== 400 || codeOf(a) !== ErrorCode.INVALID_PARAMETER) return 'expected 400 INVALID_PARAMETER';
        const message = messageOf(a) ?? '';
        if (message !== verdict.message) return `message differs from the schema's: ${JSON.stringify(verdict.message.slice(0, 120))}`;
        if (c.param && !message.includes(c.param)) return `the message does not name ${c.param}`;
        return null;
      },
    };
  }
  const insufficient = insufficientCodes(c.endpoint);
  return {
    label,
    send: () => sendRequest(port, 'GET', path, { 'x-api-key': keys.broke }),
    check: (a) => {
      if (c.mustBeInvalid) return 'the schema accepts an input the contract refuses';
      if ((a.status === 402 || a.status === 429) && insufficient.has(codeOf(a) ?? '')) return null;
      return `expected the valid input to stop at the reservation (${[...insufficient].join('/')})`;
    },
  };
}

export function restQueryProbes(endpoints: readonly ApiEndpoint[], limits: ApiLimits, port: number, keys: ProbeKeys): Probe[] {
  return endpoints.flatMap((endpoint) => queryCases(endpoint, limits).map((c) => probeFor(c, limits, port, keys)));
}
