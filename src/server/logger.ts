import { pino, type Logger } from 'pino';

/** Upstream credentials and client secrets never reach a log line. */
const REDACT = ['apiKey', 'apiKeys', '*.apiKey', '*.apiKeys', 'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-goog-api-key"]', 'req.headers["x-admin-key"]'];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
