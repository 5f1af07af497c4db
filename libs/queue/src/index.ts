export * from './job-dispatcher.js';
export * from './job-worker.js';
export * from './worker-registry.js';
export * from './queue-consumer.js';
export * from './reply-channel.js';
export * from './queue.module.js';
export * from './dispatcher.module.js';
