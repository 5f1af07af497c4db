/** Load over the limits (support/over-limits.ts) on the machine's Postgres and Redis, as every e2e test runs. */
import { describeLoadOverLimits } from './support/over-limits.js';

describeLoadOverLimits({ name: 'the system Postgres', start: async () => ({ env: {} }) });
