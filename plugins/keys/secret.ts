// A new key's id and secret. The secret is shown once; only its SHA-256 (hex, the form the auth
// plugin looks keys up by) is stored.
import { hash, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'sk-sluice-';

export interface NewSecret {
  id: string;
  secret: string;
  secretHash: string;
}

export function newSecret(): NewSecret {
  // 256 bits: guessing one is out of reach, so a plain hash (no salt, no stretching) is enough.
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  return { id: `key_${randomBytes(12).toString('hex')}`, secret, secretHash: hash('sha256', secret) };
}
