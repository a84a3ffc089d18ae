// The query string of a handler route. A route that takes no parameters refuses any: a filter
// it does not have (`?disabled=true`) is a 400 naming it, never an answer that silently
// ignored it (docs/api.md, "Admin API").
import type { RequestContext } from './context.js';
import { badRequest } from './errors.js';

export function searchParams(ctx: RequestContext): URLSearchParams {
  const url = ctx.req.url ?? '';
  const mark = url.indexOf('?');
  return new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
}

export function refuseQuery(ctx: RequestContext): void {
  for (const name of searchParams(ctx).keys()) throw badRequest(`unknown query parameter '${name}' (this route takes none)`, name);
}
