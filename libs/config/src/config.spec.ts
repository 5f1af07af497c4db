import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('applies defaults: private addresses refused, 20 URLs per crawl', () => {
    const config = loadConfig({});
    expect(config.ALLOW_PRIVATE_ADDRESSES).toBe(false);
    expect(config.CRAWL_MAX_URLS).toBe(20);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names every invalid variable without echoing secret values', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', ADMIN_TOKEN: 'short-secret', ALLOW_PRIVATE_ADDRESSES: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('ADMIN_TOKEN');
    expect(message).toContain('ALLOW_PRIVATE_ADDRESSES');
    expect(message).not.toContain('short-secret');
  });
});
