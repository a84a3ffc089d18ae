// The provider URL of a passthrough request: `{base URL}/{rest}` plus the query string, with
// a leading `v1/` dropped when the base URL already ends in /v1 (so `/p/openai/files` and
// `/p/openai/v1/files` reach the same place). The provider's credential goes with every
// request, so the path must stay under the base URL: dot segments (also percent-encoded or
// with backslashes, which URL parsers treat as slashes) are refused, and the result is checked.
import { badRequest, type GatewayError } from '../../core/errors.js';
import type { PassthroughRoute } from './passthrough-targets.js';

const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\]|$)/i;
const IGNORED_BY_URL_PARSERS = /[\t\n\r]/g;

function outsideBase(): GatewayError {
  return badRequest('a passthrough path may not contain . or .. segments', null, 'invalid_path');
}

/** `rest`: the path after `/p/{provider}/`, as received (still percent-encoded); `search`: '' or `?...`. */
export function upstreamUrl(route: PassthroughRoute, rest: string, search: string): URL {
  if (DOT_SEGMENT.test(rest.replace(IGNORED_BY_URL_PARSERS, ''))) throw outsideBase();
  let path = rest;
  if (route.stripV1 && (path === 'v1' || path.startsWith('v1/'))) path = path.slice(3);
  const base = route.basePath;
  // Absolute, never relative: `//host/...` in a relative reference would name another host.
  const url = new URL(`${route.origin}${path === '' ? base : `${base}/${path}`}${search}`);
  if (url.origin !== route.origin || (base !== '' && url.pathname !== base && !url.pathname.startsWith(base + '/'))) throw outsideBase();
  return url;
}
