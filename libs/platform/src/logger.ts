/** Structured JSON logs (pino). Secrets are redacted by path wherever they could appear. */
import { pino, type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.password',
  '*.apiKey',
  '*.token',
];

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
