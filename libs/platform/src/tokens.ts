/** Injection tokens for the shared infrastructure providers. */
export const REDIS = Symbol('REDIS');
export const CLOCK = Symbol('CLOCK');
