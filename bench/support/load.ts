/**
 * A closed-loop load generator: `concurrency` clients, each sending its next request when the last returns. `send`
 * gets the client's index (0 .. concurrency-1), e.g. to spread clients over several gateways.
 */
export interface LoadResult {
  concurrency: number;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
}

export async function closedLoop(concurrency: number, seconds: number, send: (client: number) => Promise<boolean>, warmupSeconds = 1): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const warmupEnd = Date.now() + warmupSeconds * 1000;
  const end = warmupEnd + seconds * 1000;
  const client = async (_: unknown, index: number) => {
    while (Date.now() < end) {
      const start = performance.now();
      const ok = await send(index).catch(() => false);
      const ms = performance.now() - start;
      if (Date.now() < warmupEnd) continue;
      if (ok) latencies.push(ms);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(2));
  return { concurrency, requests: latencies.length, errors, seconds, rps: Math.round(latencies.length / seconds), p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}
