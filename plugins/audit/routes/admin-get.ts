// An admin GET route of this plugin: its handler gets the request's query string, for the strict
// parsers of params.ts. The core answers 401/403 before it runs.
import type { RequestContext } from '../../../core/context.js';
import type { Gateway } from '../../../core/plugin.js';
import { searchParams } from '../../../core/query.js';

export function addAdminGet(gw: Gateway, path: string, handler: (ctx: RequestContext, params: URLSearchParams) => Promise<void>): void {
  gw.addRoute({ method: 'GET', path, access: 'admin', handler: (ctx) => handler(ctx, searchParams(ctx)) });
}
