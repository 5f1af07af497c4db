export * from './accounts.repository.js';
export * from './database.js';
export * from './ledger.repository.js';
export * from './migrator.js';
export * from './request-log.repository.js';
export * from './console.repository.js';
export * from './crawls.repository.js';
export * from './frontier.repository.js';
