// Bearer authentication: the master key (compared in constant time) or an API key found by
// the hash of its secret in the key store another plugin provides.
import { hash } from 'node:crypto';
import type { Principal, RequestContext } from '../../core/context.js';
import { unauthorized } from '../../core/errors.js';
import { resolveFormat } from '../../core/logger.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import type { KeyStore } from './key-store.js';
import { resolveMasterKey } from './master-key.js';
import { masterMatcher } from './master-match.js';

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

/** The SHA-256 of a secret; key stores are keyed by its hex form. */
export function sha256(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

const BEARER = 'bearer';

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header.length < 8 || header.charCodeAt(6) !== 32) return null;
  // The scheme is case-insensitive; compared in place rather than on a lower-cased copy. For
  // letters, the 0x20 bit is the only difference between the two cases.
  for (let i = 0; i < 6; i++) if ((header.charCodeAt(i) | 0x20) !== BEARER.charCodeAt(i)) return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}

export default definePlugin({
  name: NAME,
  setup(gw) {
    const master = resolveMasterKey(gw.loaded.config.master_key, gw.dataDir);
    if (master.generated) {
      // Printed once, on the run that created it, for a person at a terminal; later runs read it
      // from the file. JSON logs go to a collector: no credential there, and no line that is not JSON.
      if (resolveFormat(gw.loaded.config.log.format) === 'text') {
        process.stdout.write(`\nSluice generated a master key (kept in ${master.file}):\n\n    ${master.secret}\n\nUse it as the bearer token: Authorization: Bearer <master key>\n\n`);
      } else gw.logger.warn(`generated a master key and kept it in ${master.file}: read it there, it is not printed to JSON logs`);
    }
    const isMaster = masterMatcher(master.secret);
    let keyStore: KeyStore | undefined;
    gw.lifecycle.ready.tap(NAME, () => {
      keyStore = gw.services.keyStore;
    });

    async function authenticate(ctx: RequestContext): Promise<void> {
      const token = bearerToken(ctx.req.headers.authorization);
      if (token === null) throw unauthorized('missing bearer credential: send Authorization: Bearer <key>');
      if (isMaster(token)) {
        ctx.principal = MASTER;
        return;
      }
      // One-shot hashing straight to hex: no Hash object, and hex is hash()'s fast path (asking
      // for a Buffer costs nearly twice as much).
      const principal = keyStore ? await keyStore.findByHash(hash('sha256', token)) : null;
      if (principal === null) throw unauthorized('invalid credential');
      ctx.principal = principal;
    }

    gw.stages.auth.tapPromise({ name: NAME, stage: ORDER.DEFAULT }, authenticate);
  },
});
