/** libs/platform — process plumbing: config-driven database and Redis modules, the logger, the clock, local services. */
export * from './clock.js';
export * from './database.module.js';
export * from './logger.js';
export * from './nest-logger.js';
export * from './redis.js';
export * from './redis.module.js';
export * from './tokens.js';
export * from './local-services.js';
export * from './local-postgres.js';
export * from './outage.js';
