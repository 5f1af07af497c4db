/**
 * A call is one unit a user is charged for: a REST request, or one MCP `tools/call` (an MCP request or batch can
 * hold several). Each call has its own context — who is calling, the call id (which is also its reservation id
 * and its request-log row id), its deadline, and the meter the lifecycle fills in. Nothing about metering lives on
 * the HTTP request.
 */
import type { Principal } from './auth.service.js';

/**
 * The principal as one HTTP request carries it: who is calling, plus where the call came from, for the request log.
 * Passed down explicitly rather than read from an AsyncLocalStorage: on Node 20 one `run()` installs promise hooks
 * that then tax every promise in the process (about 5 % of the gateway's CPU per `/crawl` call in `bench:crawl`).
 */
export interface Caller extends Principal {
  /** The HTTP request's id (its `x-request-id`), logged as the request line's `reqId`; the call id when absent. */
  readonly requestId?: string;
  /** The name the call is logged under when not the service's route, e.g. `mcp:crawl` for an MCP tool call. */
  readonly endpoint?: string;
}

export interface CallMeter {
  /** Credits held for the worst case (a smaller amount of the plan's `lesserReserves` when the balance was short). */
  reserved: number;
  /** Credits charged when the call settled. */
  charged: number;
  /** The error code the call ended with, if any. */
  errorCode: string | null;
}

export interface CallContext {
  readonly principal: Principal;
  readonly callId: string;
  /** Route or tool name, e.g. `/crawl` or `mcp:crawl`, for the request log. */
  readonly endpoint: string;
  /** Epoch ms by which the call's work must be done. */
  readonly deadline: number;
  readonly meter: CallMeter;
}

/** Errors that ended a metered call: their call already wrote its request-log row. */
const METERED = new WeakSet<object>();

export function markMetered(error: unknown): void {
  if (typeof error === 'object' && error !== null) METERED.add(error);
}

/** Whether this error came out of a metered call (which logged itself). */
export function wasMetered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && METERED.has(error);
}
