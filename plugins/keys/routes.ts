// GET|POST /admin/keys and GET|PATCH|DELETE /admin/keys/{id}. Admin access only (the core
// answers 401/403). A write refreshes this replica's directory before it answers, so the next
// call here already sees it; other replicas follow within their refresh interval.
import type { RequestContext } from '../../core/context.js';
import { parseJsonObject, readBody } from '../../core/body.js';
import { GatewayError } from '../../core/errors.js';
import type { Gateway } from '../../core/plugin.js';
import { refuseQuery } from '../../core/query.js';
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
  const sendKey = async (ctx: RequestContext, key: StoredKey | null, status = 200, secret?: string): Promise<void> => {
    const id = ctx.params['id']!;
    if (key === null) throw new GatewayError({ status: 404, type: 'not_found_error', code: 'key_not_found', param: 'id', message: `no API key with id '${id}'` });
    const [view] = await views([key]);
    sendJson(ctx, status, secret === undefined ? view : { ...view, secret });
  };
  // No key route takes a query parameter: one sent (a filter it does not have) is a 400.
  const route = (method: string, path: string, handler: (ctx: RequestContext) => Promise<void>): void =>
    gw.addRoute({
      method,
      path,
      access: 'admin',
      handler: async (ctx) => {
        refuseQuery(ctx);
        await handler(ctx);
      },
    });

  route('GET', '/admin/keys', async (ctx) => sendJson(ctx, 200, { object: 'list', data: await views(await store.list()) }));

  route('POST', '/admin/keys', async (ctx) => {
    const fields = parseNewKey(await jsonBody(ctx));
    const { id, secret, secretHash } = newSecret();
    const key = await store.create({ ...fields, id, secret_hash: secretHash, created_at: Date.now() });
    await directory.refresh();
    // The only time the secret leaves the gateway.
    await sendKey(ctx, key, 201, secret);
  });

  route('GET', '/admin/keys/:id', async (ctx) => sendKey(ctx, await store.get(ctx.params['id']!)));

  route('PATCH', '/admin/keys/:id', async (ctx) => {
    const fields = parseKeyChange(await jsonBody(ctx));
    const key = await store.update(ctx.params['id']!, fields, Date.now());
    await directory.refresh();
    await sendKey(ctx, key);
  });

  route('DELETE', '/admin/keys/:id', async (ctx) => {
    const id = ctx.params['id']!;
    if (!(await store.delete(id, Date.now()))) return sendKey(ctx, null);
    await directory.refresh();
    sendJson(ctx, 200, { id, object: 'api_key', deleted: true });
  });
}

async function jsonBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBody(ctx.req, BODY_LIMIT));
}
