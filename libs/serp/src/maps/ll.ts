/** The `ll` parser lives with the API contract (it validates a parameter); re-exported for the providers. */
export { formatLl, parseLl, type LlError, type LlResult } from '#contracts/api/ll.js';
