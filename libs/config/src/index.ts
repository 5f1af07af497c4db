export * from './config.module.js';
export * from './config.schema.js';
export * from './api-limits.js';
