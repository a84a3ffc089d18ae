// The master key: from the config/environment, or generated once and kept in the data
// directory with mode 0600 so that it survives restarts and only its owner can read it.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MasterKey {
  secret: string;
  /** True when it was generated now (and must be shown to the operator once). */
  generated: boolean;
  file: string | null;
}

export const MASTER_KEY_FILE = 'master.key';

export function resolveMasterKey(configured: string | null, dataDir: string): MasterKey {
  if (configured !== null) return { secret: configured, generated: false, file: null };
  const file = join(dataDir, MASTER_KEY_FILE);
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 16) return { secret, generated: false, file };
  }
  const secret = `sk-sluice-${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return { secret, generated: true, file };
}
