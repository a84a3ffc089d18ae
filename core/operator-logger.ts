// The operator's log as the config asks for it (level, format), told every credential value
// the config and environment hold so that none is ever printed, whatever a message quotes.
import type { Writable } from 'node:stream';
import type { LoadedConfig } from './config.js';
import { createLogger } from './logger.js';
import type { Logger } from './logger.js';

/** Environment variables that hold credentials by the naming every provider follows. */
const CREDENTIAL_VARIABLE = /(_API_KEY|_MASTER_KEY|_TOKEN|_SECRET|_PASSWORD)$/;

export function operatorLogger(loaded: LoadedConfig, stream?: Writable): Logger {
  const { log } = loaded.config;
  return createLogger(log.level, { format: log.format, secrets: credentialValues(loaded), stream });
}

export function credentialValues(loaded: LoadedConfig): string[] {
  const values: string[] = [];
  if (loaded.config.master_key !== null) values.push(loaded.config.master_key);
  for (const entry of Object.values(loaded.config.providers)) if (typeof entry.api_key === 'string') values.push(entry.api_key);
  for (const [name, value] of Object.entries(loaded.env)) if (value !== undefined && CREDENTIAL_VARIABLE.test(name)) values.push(value);
  return values;
}
