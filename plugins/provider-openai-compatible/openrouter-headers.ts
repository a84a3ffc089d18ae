// OpenRouter's app attribution (openrouter.ai/docs/app-attribution): `HTTP-Referer` is the app's
// URL and `X-OpenRouter-Title` its display name. `X-Title` is the older name of the latter, still
// read "for backwards compatibility"; both are sent so any deployment of their API sees the title.
// Both come from the instance options and are optional: without them nothing is sent.

export const OPENROUTER_OPTIONS = {
  http_referer: { type: 'string', minLength: 1 },
  app_title: { type: 'string', minLength: 1 },
};

export function openrouterHeaders(options: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  const referer = options['http_referer'];
  const title = options['app_title'];
  if (typeof referer === 'string') headers['http-referer'] = referer;
  if (typeof title === 'string') {
    headers['x-openrouter-title'] = title;
    headers['x-title'] = title;
  }
  return headers;
}
