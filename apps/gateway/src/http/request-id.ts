/** Request ids: a client's `x-request-id` is honoured when it is 1–128 characters of `[A-Za-z0-9._:-]`, else one is generated. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: Pick<IncomingMessage, 'headers'>): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && VALID.test(sent) ? sent : randomUUID();
}
