// The query string of an admin request, for the strict parsers of params.ts.
import type { RequestContext } from '../../../core/context.js';

export function searchParams(ctx: RequestContext): URLSearchParams {
  const url = ctx.req.url ?? '';
  const mark = url.indexOf('?');
  return new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
}
