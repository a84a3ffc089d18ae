// The operator's log (startup, warnings, errors): winston, kept off the per-request path.
// The log stage's plugins, not this, keep the per-request record.
import winston from 'winston';

export type Logger = winston.Logger;

export function createLogger(level: string): Logger {
  return winston.createLogger({
    level,
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.printf((info) => {
        const { timestamp, level: lvl, message, plugin, ...rest } = info as Record<string, unknown>;
        const meta = Object.keys(rest).length > 0 ? ' ' + JSON.stringify(rest, redactSecrets) : '';
        return `${String(timestamp)} ${String(lvl)}${plugin ? ` [${String(plugin)}]` : ''} ${String(message)}${meta}`;
      }),
    ),
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn'] })],
  });
}

const SECRET_KEY = /key|secret|token|authorization|password|cookie/i;

/** Credentials never reach the log, whatever a plugin passes as metadata. */
function redactSecrets(key: string, value: unknown): unknown {
  return key !== '' && SECRET_KEY.test(key) && typeof value === 'string' ? '[redacted]' : value;
}
