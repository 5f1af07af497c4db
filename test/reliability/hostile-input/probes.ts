/**
 * A probe is one hostile input: how to send it and what its answer must be. The universal rules of the suite are
 * checked here for every probe — never a 5xx, a 4xx body exactly in the contract's shape, no secret echoed — and the
 * probe adds its own expectation. Probes run with a modest concurrency; failures are collected, not thrown, so one
 * run reports every defect.
 */
import { ErrorCode } from '#contracts';
import type { HttpAnswer } from './raw-http.js';

export interface Probe {
  label: string;
  send(): Promise<HttpAnswer>;
  /** A reason the answer is wrong for this input, or null. */
  check(answer: HttpAnswer): string | null;
  /** Error bodies on this route are JSON-RPC (MCP protocol errors) rather than the REST shape. */
  jsonRpc?: boolean;
  /** HEAD: no body to check. */
  head?: boolean;
}

const CODES = new Set<string>(Object.values(ErrorCode));

/** A REST error body exactly: `{ error: { code, message } }`, nothing else, with a known code. */
export function restErrorProblem(json: unknown): string | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return 'the error body is not a JSON object';
  const keys = Object.keys(json);
  if (keys.length !== 1 || keys[0] !== 'error') return `the error body has keys ${JSON.stringify(keys)}`;
  const error = (json as { error: unknown }).error;
  if (!error || typeof error !== 'object') return 'error is not an object';
  const inner = Object.keys(error).sort();
  if (inner.join() !== 'code,message') return `error has keys ${JSON.stringify(inner)}`;
  const { code, message } = error as { code: unknown; message: unknown };
  if (typeof code !== 'string' || !CODES.has(code)) return `error.code ${JSON.stringify(code)} is not one of the contract's codes`;
  if (typeof message !== 'string' || message === '') return 'error.message is not a non-empty string';
  return null;
}

/** A JSON-RPC 2.0 error response (MCP transport errors). */
export function jsonRpcErrorProblem(json: unknown): string | null {
  const body = json as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (!body || body.jsonrpc !== '2.0' || typeof body.error?.code !== 'number' || typeof body.error.message !== 'string') {
    return 'not a JSON-RPC error response';
  }
  return null;
}

/** Firecrawl's error body (the /v1 and /v2 routes answer as Firecrawl does): `{ success: false, error, code?, details? }`. */
export function firecrawlErrorProblem(json: unknown): string | null {
  const body = json as { success?: unknown; error?: unknown; code?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the error body is not a JSON object';
  const extra = Object.keys(body).filter((k) => !['success', 'error', 'code', 'details'].includes(k));
  if (body.success !== false || typeof body.error !== 'string' || body.error === '' || extra.length > 0) return "not Firecrawl's error shape";
  if (body.code !== undefined && typeof body.code !== 'string') return 'code is not a string';
  return null;
}

/** Probes of the Firecrawl-compatible routes, by the path in their label. */
const FIRECRAWL_ROUTE = /(?:^|\s)\/v[12](?:\/|\s|\?|$)/;

function universalProblem(probe: Probe, answer: HttpAnswer, secrets: readonly string[]): string | null {
  if (answer.status === 0) return 'the server closed the connection without answering';
  if (answer.status >= 500) return `answered ${answer.status}`;
  for (const secret of secrets) if (answer.text.includes(secret)) return `the answer contains a secret (${secret.slice(0, 6)}…)`;
  if (answer.status >= 400 && !probe.head) {
    if (!/^application\/json/.test(answer.headers['content-type'] ?? 'application/json')) return `error content-type ${answer.headers['content-type']}`;
    const rest = restErrorProblem(answer.json);
    const otherShape = probe.jsonRpc ? jsonRpcErrorProblem(answer.json) === null : FIRECRAWL_ROUTE.test(probe.label) && firecrawlErrorProblem(answer.json) === null;
    if (rest && !otherShape) return `${answer.status}: ${rest}`;
  }
  return null;
}

export interface ProbeRun {
  tried: number;
  failures: string[];
}

/** Sends every probe (at most `concurrency` at once) and returns the failures, described. */
export async function runProbes(probes: readonly Probe[], concurrency: number, secrets: readonly string[]): Promise<ProbeRun> {
  const failures: string[] = [];
  let next = 0;
  const describe = (probe: Probe, answer: HttpAnswer | null, why: string) =>
    `${probe.label.slice(0, 160)} → ${why}${answer ? ` [${answer.status} ${answer.text.slice(0, 200)}]` : ''}`;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next++];
      let answer: HttpAnswer;
      try {
        answer = await probe.send();
      } catch (error) {
        failures.push(describe(probe, null, `no answer: ${(error as Error).message}`));
        continue;
      }
      const why = universalProblem(probe, answer, secrets) ?? probe.check(answer);
      if (why) failures.push(describe(probe, answer, why));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { tried: probes.length, failures };
}

/** The error code of a REST error answer. */
/** The error's code: `error.code` in the contract's shape, the top-level `code` in Firecrawl's (`/v1`, `/v2`). */
export const codeOf = (answer: HttpAnswer): string | undefined => {
  const body = answer.json as { error?: { code?: string } | string; code?: string } | undefined;
  return typeof body?.error === 'string' ? body.code : body?.error?.code;
};
export const messageOf = (answer: HttpAnswer): string | undefined => (answer.json as { error?: { message?: string } } | undefined)?.error?.message;
