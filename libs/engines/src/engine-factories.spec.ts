import { describe, expect, it } from '@jest/globals';
import type { TrawlConfig } from '#config';
import { ENGINE_FACTORIES } from './engine-factories.js';

describe('render queue concurrency', () => {
  it('takes one job more per four browser contexts, so a finished page is formatted while the next one renders', () => {
    const of = (contexts: number) => ENGINE_FACTORIES.chromium.concurrency({ WORKER_RENDER_CONCURRENCY: contexts } as TrawlConfig);
    expect(of(1)).toBe(2);
    expect(of(4)).toBe(5);
    expect(of(8)).toBe(10);
  });
});
