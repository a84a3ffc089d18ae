// The operator endpoints: GET /admin/audit (pages of summaries), GET /admin/audit/{id} (one
// full entry) and GET /admin/usage (exact totals, per hour or day on request). Admin access
// only; the core answers 401/403.
// Each read first has the writer store what is queued, so a request that just finished is
// listed; an entry answered but not stored (the store failing) is answered from the writer.
import { badRequest, GatewayError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/plugin.js';
import { refuseQuery } from '../../../core/query.js';
import { sendJson } from '../../../core/respond.js';
import type { AuditEntry } from '../audit-entry.js';
import type { AuditStore } from '../store/store.js';
import type { PendingAnswer } from '../writer/writer-messages.js';
import { parseAuditQuery, parseUsageQuery } from './params.js';
import { addAdminGet } from './admin-get.js';
import { usageView } from './usage-view.js';

/** An entry as GET /admin/audit/{id} shows it: JSON bodies parsed back into JSON. */
export interface AuditEntryView extends Omit<AuditEntry, 'request_body' | 'response_body'> {
  request_body: unknown;
  response_body: unknown;
}

export interface AuditRoutesOptions {
  store: AuditStore;
  /** Stores what is queued; resolves whether everything is stored. */
  beforeRead: () => Promise<boolean>;
  /** An entry the writer holds and the store does not have yet. */
  pending: (id: string) => Promise<PendingAnswer>;
}

function storeUnavailable(message: string): GatewayError {
  return new GatewayError({ status: 503, type: 'internal_error', code: 'store_unavailable', message, retryAfter: 1 });
}

export function registerAuditRoutes(gw: Gateway, options: AuditRoutesOptions): void {
  const { store, beforeRead, pending } = options;

  addAdminGet(gw, '/admin/audit', async (ctx, params) => {
    const query = parseAuditQuery(params);
    await beforeRead();
    const page = await store.query(query.filter, query.cursor, query.limit);
    sendJson(ctx, 200, { object: 'list', data: page.data, next_cursor: page.next_cursor });
  });

  addAdminGet(gw, '/admin/audit/:id', async (ctx) => {
    refuseQuery(ctx);
    const id = decodeParam(ctx.params['id']!);
    await beforeRead();
    const entry = await store.get(id).catch((err: Error) => {
      throw storeUnavailable(`the audit store cannot be read: ${err.message}`);
    });
    if (entry !== null) return sendJson(ctx, 200, toView(entry));
    const held = await pending(id);
    if (held.entry !== null) return sendJson(ctx, 200, toView(held.entry));
    // Entries that wait on disk only cannot be looked through: "unknown" might be untrue.
    if (held.failing && !held.complete) throw storeUnavailable('the audit store is failing and some answered entries are not stored yet; try again later');
    throw new GatewayError({ status: 404, type: 'not_found_error', code: 'audit_entry_not_found', message: `no audit entry with id '${id}' (unknown, or purged by retention)`, param: 'id' });
  });

  addAdminGet(gw, '/admin/usage', async (ctx, params) => {
    const query = parseUsageQuery(params);
    await beforeRead();
    sendJson(ctx, 200, usageView(query, await store.usage(query.groupBy, query.from, query.to, query.bucket)));
  });
}

export function toView(entry: AuditEntry): AuditEntryView {
  return {
    ...entry,
    request_body: entry.request_body_truncated ? entry.request_body : parseJsonText(entry.request_body),
    response_body: entry.response_body_truncated ? entry.response_body : parseJsonText(entry.response_body),
  };
}

/** JSON objects and arrays come back as JSON; any other text stays text. */
function parseJsonText(text: string | null): unknown {
  if (text === null) return null;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest('malformed audit entry id in the path', 'id');
  }
}
