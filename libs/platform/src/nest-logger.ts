/** The Nest logger every Trawl process uses: JSON lines, up to the configured level (`silent` turns it off). */
import { ConsoleLogger } from '@nestjs/common';
import type { TrawlConfig } from '#config';

export function nestLogger(config: Pick<TrawlConfig, 'LOG_LEVEL'>): ConsoleLogger | false {
  if (config.LOG_LEVEL === 'silent') return false;
  const levels = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  const upTo = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 }[config.LOG_LEVEL];
  return new ConsoleLogger({ json: true, logLevels: [...levels.slice(0, upTo + 1)] });
}
