// Bearer authentication: the master key (compared in constant time) or an API key found by
// the hash of its secret in the key store another plugin provides.
import { hash, timingSafeEqual } from 'node:crypto';
import type { Principal, RequestContext } from '../../core/context.js';
import { unauthorized } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import type { KeyStore } from './key-store.js';
import { resolveMasterKey } from './master-key.js';

export type { KeyStore } from './key-store.js';

const NAME = 'auth';

const MASTER: Principal = Object.freeze({
  id: 'master',
  name: 'master',
  kind: 'master',
  admin: true,
  labels: Object.freeze({}) as Record<string, string>,
  allowedModels: null,
});

/** One-shot hashing: no Hash object per request (createHash costs several times more). */
export function sha256(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header.length < 8) return null;
  if (header.charCodeAt(6) !== 32 || header.slice(0, 6).toLowerCase() !== 'bearer') return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}

export default definePlugin({
  name: NAME,
  setup(gw) {
    const master = resolveMasterKey(gw.loaded.config.master_key, gw.dataDir);
    if (master.generated) {
      // Printed once, on the run that created it; later runs read it from the file.
      process.stdout.write(`\nSluice generated a master key (kept in ${master.file}):\n\n    ${master.secret}\n\nUse it as the bearer token: Authorization: Bearer <master key>\n\n`);
    }
    const masterHash = sha256(master.secret);
    let keyStore: KeyStore | undefined;
    gw.lifecycle.ready.tap(NAME, () => {
      keyStore = gw.services.keyStore;
    });

    async function authenticate(ctx: RequestContext): Promise<void> {
      const token = bearerToken(ctx.req.headers.authorization);
      if (token === null) throw unauthorized('missing bearer credential: send Authorization: Bearer <key>');
      // Hashing first gives equal-length inputs, so the comparison time says nothing about the key.
      const hash = sha256(token);
      if (timingSafeEqual(hash, masterHash)) {
        ctx.principal = MASTER;
        return;
      }
      const principal = keyStore ? await keyStore.findByHash(hash.toString('hex')) : null;
      if (principal === null) throw unauthorized('invalid credential');
      ctx.principal = principal;
    }

    gw.stages.auth.tapPromise({ name: NAME, stage: ORDER.DEFAULT }, authenticate);
  },
});
