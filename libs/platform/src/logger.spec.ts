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
