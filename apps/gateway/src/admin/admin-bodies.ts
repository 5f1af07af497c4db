/**
 * The admin API's request bodies, one zod schema per AdminController handler that takes a body. Text fields refuse
 * control characters: Postgres cannot store NUL in text, and names and plan ids have no use for the others.
 */
import { z } from 'zod';

const CONTROL = /[\u0000-\u001f\u007f]/;
const text = (name: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) }).refine((value) => !CONTROL.test(value), `${name} must not contain control characters`);

export const ADMIN_BODIES = {
  create: z.object({ name: text('name').pipe(z.string().min(1, 'name is required')), plan: text('plan').default('free') }),
  revoke: z.object({ prefix: text('prefix').optional() }),
  setPlan: z.object({ plan: text('plan') }),
  subscription: z.object({ expiresAt: z.string().datetime({ error: 'expiresAt must be an ISO 8601 date-time' }).nullable() }),
  grant: z.object({
    credits: z.number({ error: 'credits must be a positive integer' }).int('credits must be a positive integer').positive('credits must be a positive integer'),
  }),
} as const;
