/** The Nest logger every Trawl process uses: pino JSON lines, up to the configured level (`silent` turns it off). */
import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import type { TrawlConfig } from '#config';
import { createLogger } from './logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Nest's start-up chatter (every module and mapped route, ~60 lines): kept at debug, below what an operator reads. */
const START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's LoggerService on pino: log→info, verbose→trace; the last string parameter is Nest's context. */
export class PinoNestLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && START_UP_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    let msg: string | undefined;
    if (message instanceof Error) fields.err = message;
    else if (message !== null && typeof message === 'object') Object.assign(fields, message);
    else msg = String(message);
    for (const param of rest) {
      if (typeof param === 'string') {
        if (msg === undefined) msg = param;
        else fields.stack = param;
      } else if (param instanceof Error) fields.err = param;
    }
    this.pino[level](fields, msg ?? '');
  }
}

export function nestLogger(config: Pick<TrawlConfig, 'LOG_LEVEL'>, name = 'trawl'): PinoNestLogger | false {
  if (config.LOG_LEVEL === 'silent') return false;
  return new PinoNestLogger(createLogger(config.LOG_LEVEL, name));
}
