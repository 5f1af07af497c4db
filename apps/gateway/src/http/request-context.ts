/** Per-request facts gathered along the lifecycle, written to the request log when the response is sent. */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '#billing';

export interface RequestOutcome {
  principal?: Principal;
  credits?: number;
  errorCode?: string;
  /** Same id as the HTTP request: ties the ledger rows to the request log. */
  requestId?: string;
}

const OUTCOME = Symbol('trawl.outcome');

type WithOutcome = FastifyRequest & { [OUTCOME]?: RequestOutcome };

export function outcomeOf(request: FastifyRequest): RequestOutcome {
  const r = request as WithOutcome;
  r[OUTCOME] ??= { requestId: request.id };
  return r[OUTCOME];
}

export function markOutcome(request: FastifyRequest, patch: RequestOutcome): void {
  Object.assign(outcomeOf(request), patch);
}
