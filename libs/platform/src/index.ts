export * from './database.module.js';
export * from './logger.js';
export * from './redis.module.js';
export * from './tokens.js';
export * from './local-services.js';
