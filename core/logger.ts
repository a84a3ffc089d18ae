// The operator's log (startup, warnings, errors, an optional access log): winston, kept off
// the per-request path. The log stage's plugins, not this, keep the per-request record. JSON lines for a
// log collector when stdout is not a terminal, readable text in one. Credentials never reach
// it: metadata under a credential-like name is redacted, and the credential values the config
// holds are scrubbed from every line, whatever a message quotes.
import type { Writable } from 'node:stream';
import winston from 'winston';
import { SecretText } from './secret-text.js';

export type Logger = winston.Logger;
export type LogFormat = 'auto' | 'json' | 'text';

export interface LoggerOptions {
  /** `auto`: JSON lines unless stdout is a terminal. */
  format?: LogFormat;
  /** Credential values to scrub from every line (shorter than 8 characters they are ignored). */
  secrets?: Iterable<string>;
  /** Where the lines go (tests); default the console, warnings and errors on stderr. */
  stream?: Writable;
}

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const json = resolveFormat(options.format ?? 'auto') === 'json';
  const secrets = new SecretText(options.secrets ?? []);
  const transport = options.stream === undefined
    ? new winston.transports.Console({ stderrLevels: ['error', 'warn'] })
    : new winston.transports.Stream({ stream: options.stream });
  return winston.createLogger({
    level,
    format: winston.format.combine(
      winston.format.timestamp(),
      json ? winston.format.json({ replacer: redactSecrets }) : textLine,
      scrub(secrets),
    ),
    transports: [transport],
  });
}

export function resolveFormat(format: LogFormat): 'json' | 'text' {
  if (format !== 'auto') return format;
  return process.stdout.isTTY ? 'text' : 'json';
}

/** `2026-11-26T18:00:00.000Z info [plugin] message {"meta":...}`; a startup line's topic is its message's start already. */
const textLine = winston.format.printf((info) => {
  const { timestamp, level: lvl, message, plugin, startup: _topic, ...rest } = info as Record<string, unknown>;
  const meta = Object.keys(rest).length > 0 ? ' ' + JSON.stringify(rest, redactSecrets) : '';
  return `${String(timestamp)} ${String(lvl)}${plugin ? ` [${String(plugin)}]` : ''} ${String(message)}${meta}`;
});

const MESSAGE = Symbol.for('message');

/** Replaces every occurrence of a known credential in the finished line. */
function scrub(secrets: SecretText): winston.Logform.Format {
  return winston.format((info) => {
    const record = info as unknown as Record<symbol, unknown>;
    const finished = record[MESSAGE];
    if (typeof finished !== 'string') return info;
    record[MESSAGE] = secrets.redact(finished);
    return info;
  })();
}

// `api_key`, `x-api-key`, `master_key`, `key`, `authorization`...; not `key_id` nor a count of tokens
// (only string values are redacted).
const SECRET_KEY = /secret|token|password|authorization|cookie|credential|api[-_]?key|^key$|[-_]key$/i;

/** Credentials never reach the log, whatever a plugin passes as metadata. */
function redactSecrets(key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  return key !== '' && SECRET_KEY.test(key) && typeof value === 'string' ? '[redacted]' : value;
}
