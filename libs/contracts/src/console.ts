/**
 * The console's JSON API (`/console/session`, `/account/…`, `/admin/usage`, `/admin/health`): request schemas (zod,
 * validated by the gateway) and response types, shared by the gateway and the console's frontend (console/), so the
 * two cannot drift. Documented in docs/console.md.
 */
import { z } from 'zod';

const CONTROL = /[\u0000-\u001f\u007f]/;

/** `POST /console/session`: exactly one way of signing in. */
export const signInBodySchema = z.union([
  z.strictObject({ apiKey: z.string().min(1, 'apiKey is required').max(200, 'apiKey is too long') }),
  z.strictObject({ link: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'link must be the token of a sign-in link') }),
  z.strictObject({ adminToken: z.string().min(1, 'adminToken is required').max(500, 'adminToken is too long') }),
], { error: 'body must be {"apiKey"}, {"link"} or {"adminToken"}' });
export type SignInBody = z.infer<typeof signInBodySchema>;

/** `POST /account/keys`. */
export const createKeyBodySchema = z.strictObject({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .max(100, 'name must be at most 100 characters')
    .refine((v) => !CONTROL.test(v), 'name must not contain control characters')
    .optional(),
});

/** `GET /account/usage` and `GET /admin/usage`. */
export const usageQuerySchema = z.strictObject({
  days: z.coerce.number({ error: 'days must be an integer from 1 to 90' }).int('days must be an integer from 1 to 90').min(1, 'days must be an integer from 1 to 90').max(90, 'days must be an integer from 1 to 90').default(30),
});

/** `GET /account/requests`: newest first; `before` is the `cursor` of the previous page. */
export const requestsQuerySchema = z.strictObject({
  endpoint: z.string().max(64, 'endpoint must be at most 64 characters').optional(),
  outcome: z.enum(['ok', 'error'], { error: 'outcome must be ok or error' }).optional(),
  before: z.string().regex(/^\d{13}_[0-9a-f-]{36}$/i, 'before must be a cursor from a previous page').optional(),
  limit: z.coerce.number({ error: 'limit must be an integer from 1 to 200' }).int('limit must be an integer from 1 to 200').min(1, 'limit must be an integer from 1 to 200').max(200, 'limit must be an integer from 1 to 200').default(50),
});

export interface ConsoleSession {
  kind: 'account' | 'admin';
  /** Send it back as `x-csrf-token` on every POST/DELETE made with the session cookie. */
  csrfToken: string;
  account?: { id: string; name: string };
  expiresAt: string;
}

export interface AccountOverview {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  plan: { id: string; name: string; monthlyCredits: number; concurrencyLimit: number; priceUsdCents: number };
  balance: number;
  period: { start: string; end: string };
  subscriptionExpiresAt: string | null;
  concurrency: { inUse: number; limit: number };
  thisPeriod: { calls: number; credits: number };
}

export interface UsageDayView {
  day: string;
  endpoint: string;
  calls: number;
  errors: number;
  credits: number;
}

export interface UsageView {
  since: string;
  days: UsageDayView[];
}

export interface RequestView {
  id: string;
  requestId: string | null;
  endpoint: string;
  status: number;
  credits: number;
  durationMs: number;
  errorCode: string | null;
  createdAt: string;
}

export interface RequestPage {
  requests: RequestView[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  cursor: string | null;
  endpoints: string[];
}

export interface RequestDetailView extends RequestView {
  detail: { urls: Array<{ url: string; status_code?: number; error?: string }>; more?: number; egress?: { via: 'proxy' | 'direct'; country?: string } } | null;
}

/** A site crawl or batch still queued or running (`GET /account/crawls`): its progress, never its options. */
export interface CrawlProgressView {
  id: string;
  kind: 'site' | 'batch';
  status: string;
  url: string | null;
  discovered: number;
  done: number;
  failed: number;
  skipped: number;
  credits: number;
  createdAt: string;
  startedAt: string | null;
}

export interface KeyView {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The only response that ever carries a whole key: shown once, never again. */
export interface CreatedKeyView extends KeyView {
  apiKey: string;
}

export interface AdminUsageView extends UsageView {
  accounts: Array<{ accountId: string; name: string; calls: number; errors: number; credits: number }>;
}

export interface AdminHealthView {
  workers: Record<string, number>;
  queues: Array<{ name: string; waiting: number; active: number; delayed: number; failed: number; completed: number }>;
  /** Proxy pools of the workers in this process (standalone); a separate worker's pools are on its /metrics. */
  proxies: Array<{ pool: string; country: string; configured: number; health?: number; resting?: number }>;
}
