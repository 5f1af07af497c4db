/** libs/metrics — Prometheus metrics of every Trawl process (prom-client), and the METRICS_PORT server. */
export * from './metrics.js';
export * from './metrics-server.js';
