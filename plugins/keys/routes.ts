// GET|POST /admin/keys and GET|PATCH|DELETE /admin/keys/{id}. Admin access only (the core
// answers 401/403). A write refreshes this replica's directory before it answers, so the next
// call here already sees it; other replicas follow within their refresh interval.
import type { RequestContext } from '../../core/context.js';
import { parseJsonObject, readBody } from '../../core/body.js';
import { GatewayError } from '../../core/errors.js';
import type { Gateway } from '../../core/plugin.js';
import { sendJson } from '../../core/respond.js';
import type { KeysStore, StoredKey } from '../audit/store/store.js';
import type { KeyDirectory } from './key-directory.js';
import { parseKeyChange, parseNewKey } from './key-input.js';
import { keyView } from './key-view.js';
import type { KeyView } from './key-view.js';
import { newSecret } from './secret.js';
import { spendOf } from './spend.js';

// A key's JSON is small; this bounds what an admin call may make the gateway buffer.
const BODY_LIMIT = 256 * 1024;

export function registerKeyRoutes(gw: Gateway, store: KeysStore, directory: KeyDirectory): void {
  const views = async (keys: readonly StoredKey[]): Promise<KeyView[]> => {
    const spend = await spendOf(keys, Date.now(), gw.services.auditStore, gw.services.keySpend);
    return keys.map((k, i) => keyView(k, spend[i]!));
  };
  const found = (key: StoredKey | null, id: string): StoredKey => {
    if (key === null) throw new GatewayError({ status: 404, type: 'not_found_error', code: 'key_not_found', param: 'id', message: `no API key with id '${id}'` });
    return key;
  };

  gw.addRoute({
    method: 'GET',
    path: '/admin/keys',
    access: 'admin',
    handler: async (ctx) => sendJson(ctx, 200, { object: 'list', data: await views(await store.list()) }),
  });

  gw.addRoute({
    method: 'POST',
    path: '/admin/keys',
    access: 'admin',
    handler: async (ctx) => {
      const fields = parseNewKey(await jsonBody(ctx));
      const { id, secret, secretHash } = newSecret();
      const key = await store.create({ ...fields, id, secret_hash: secretHash, created_at: Date.now() });
      await directory.refresh();
      // The only time the secret leaves the gateway.
      sendJson(ctx, 201, { ...(await views([key]))[0], secret });
    },
  });

  gw.addRoute({
    method: 'GET',
    path: '/admin/keys/:id',
    access: 'admin',
    handler: async (ctx) => {
      const id = ctx.params['id']!;
      sendJson(ctx, 200, (await views([found(await store.get(id), id)]))[0]);
    },
  });

  gw.addRoute({
    method: 'PATCH',
    path: '/admin/keys/:id',
    access: 'admin',
    handler: async (ctx) => {
      const id = ctx.params['id']!;
      const fields = parseKeyChange(await jsonBody(ctx));
      const key = found(await store.update(id, fields, Date.now()), id);
      await directory.refresh();
      sendJson(ctx, 200, (await views([key]))[0]);
    },
  });

  gw.addRoute({
    method: 'DELETE',
    path: '/admin/keys/:id',
    access: 'admin',
    handler: async (ctx) => {
      const id = ctx.params['id']!;
      if (!(await store.delete(id, Date.now()))) found(null, id);
      await directory.refresh();
      sendJson(ctx, 200, { id, object: 'api_key', deleted: true });
    },
  });
}

async function jsonBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBody(ctx.req, BODY_LIMIT));
}
