import { afterEach, describe, expect, it } from '@jest/globals';
import { createLogger, logTo, maskUrlSecrets } from './logger.js';
import { nestLogger, type PinoNestLogger } from './nest-logger.js';

const lines: Record<string, any>[] = [];
const capture = () => {
  lines.length = 0;
  logTo({ write: (line: string) => void lines.push(JSON.parse(line)) });
};

afterEach(() => logTo(undefined));

describe('the log format', () => {
  it('writes pino JSON lines: level, time, pid, hostname, name, msg', () => {
    capture();
    createLogger('info', 'trawl').info({ accountId: 'a1' }, 'hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, name: 'trawl', msg: 'hello', accountId: 'a1', pid: process.pid });
    expect(typeof lines[0].time).toBe('number');
    expect(typeof lines[0].hostname).toBe('string');
  });

  it('redacts keys, authorization, cookies, tokens and proxy credentials by path', () => {
    capture();
    createLogger('trace', 'trawl').trace(
      {
        req: { method: 'GET', url: '/crawl', headers: { authorization: 'Bearer admin-secret', 'x-api-key': 'tr_live_secret', cookie: 'c=secret' } },
        account: { apiKey: 'tr_live_secret2', token: 'tok-secret' },
        config: { ADMIN_TOKEN: 'admin-secret-123456', RESIDENTIAL_PROXY_URL: 'http://u:hunter2@proxy' },
      },
      'incoming',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['admin-secret', 'tr_live_secret', 'c=secret', 'tok-secret', 'hunter2']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('masks API keys and tokens pasted into request URLs, even at trace', () => {
    capture();
    createLogger('trace', 'trawl').trace({ req: { method: 'GET', url: '/crawl?urls=https://a.example&api_key=tr_live_x1&apikey=y2&key=z3&token=t4' } }, 'incoming');
    expect(lines[0].req.url).toBe('/crawl?urls=https://a.example&api_key=[redacted]&apikey=[redacted]&key=[redacted]&token=[redacted]');
    expect(maskUrlSecrets('/s?KEY=abc#x')).toBe('/s?KEY=[redacted]#x');
    expect(maskUrlSecrets('/crawl?urls=http://user:pw@host/')).toBe('/crawl?urls=http://[redacted]@host/');
    expect(maskUrlSecrets('/crawl?monkey=1&keys=2')).toBe('/crawl?monkey=1&keys=2');
  });

  it('masks x-api-key parameters, keys inside encoded target URLs (once or twice encoded) and any Trawl key', () => {
    const key = 'trawl_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
    expect(maskUrlSecrets(`/crawl?urls=https://a.example&x-api-key=${key}`)).toBe('/crawl?urls=https://a.example&x-api-key=[redacted]');
    expect(maskUrlSecrets(`/crawl?x_api_key=${key}&page_text=true`)).toBe('/crawl?x_api_key=[redacted]&page_text=true');
    const once = `/crawl?urls=${encodeURIComponent(`https://a.example/p?key=${key}&q=1`)}`;
    expect(maskUrlSecrets(once)).toBe(`/crawl?urls=${encodeURIComponent('https://a.example/p?key=')}[redacted]${encodeURIComponent('&q=1')}`);
    const twice = `/search?q=${encodeURIComponent(encodeURIComponent(`https://b.example/?api_key=secret-value-1&x=2`))}`;
    expect(maskUrlSecrets(twice)).not.toContain('secret-value-1');
    expect(maskUrlSecrets(twice)).toContain(encodeURIComponent(encodeURIComponent('&x=2')));
    expect(maskUrlSecrets(`/keys/${key}/usage`)).toBe('/keys/trawl_[redacted]/usage');
    expect(maskUrlSecrets(`/crawl?urls=${encodeURIComponent('http://user:pw-secret@host/')}`)).toBe(`/crawl?urls=http%3A%2F%2F[redacted]%40host%2F`);
    // Not a secret-bearing name: untouched, encoded or not.
    expect(maskUrlSecrets(`/crawl?urls=${encodeURIComponent('https://a.example/?monkey=1&keys=2')}`)).toBe(`/crawl?urls=${encodeURIComponent('https://a.example/?monkey=1&keys=2')}`);
  });

  it('keeps an API key in an encoded target URL out of the request line Fastify logs at debug', () => {
    capture();
    const key = 'trawl_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210zyxw';
    createLogger('debug', 'trawl').debug({ req: { method: 'GET', url: `/crawl?urls=${encodeURIComponent(`https://a.example/?key=${key}`)}` } }, 'incoming request');
    expect(JSON.stringify(lines)).not.toContain(key.slice(6));
  });
});

describe('the Nest logger on pino', () => {
  it('maps Nest levels onto pino (log→info, verbose→trace), keeps the context, and is off when silent', () => {
    capture();
    const logger = nestLogger({ LOG_LEVEL: 'debug' }) as PinoNestLogger;
    logger.log('started', 'Bootstrap');
    logger.verbose('hidden at debug', 'Bootstrap');
    logger.error({ reqId: 'r1' }, 'Unhandled error', 'ErrorFilter');
    logger.error('failed', 'Error: boom\n    at x', 'Worker');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'started', context: 'Bootstrap', name: 'trawl' }),
      expect.objectContaining({ level: 50, msg: 'Unhandled error', context: 'ErrorFilter', reqId: 'r1' }),
      expect.objectContaining({ level: 50, msg: 'failed', context: 'Worker', stack: 'Error: boom\n    at x' }),
    ]);
    expect(nestLogger({ LOG_LEVEL: 'silent' })).toBe(false);
  });
});
