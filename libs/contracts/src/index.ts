export * from './countries.js';
export * from './devices.js';
export * from './error-codes.js';
export * from './formats.js';
export * from './jobs.js';
export * from './proxy.js';
export * from './trawl-error.js';
