// The operator dashboard: a static single-page app at /dashboard/, built by Vite from app/
// into dist/dashboard. The routes are public: the page holds no data, and every call it makes
// goes to the admin API with the key the operator signs in with.
import type { RequestContext } from '../../core/context.js';
import { routeNotFound } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { sendError } from '../../core/respond.js';
import { DASHBOARD_BUILD_DIR } from './build-dir.js';
import { NOT_BUILT_PAGE } from './not-built.js';
import { loadStaticFiles } from './static-files.js';
import type { StaticFile } from './static-files.js';

const NAME = 'dashboard';

// The app loads only its own bundled files and talks only to this gateway.
const SECURITY_HEADERS = [
  'content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options', 'nosniff',
  'referrer-policy', 'no-referrer',
];

export default definePlugin({
  name: NAME,
  async setup(gw) {
    const files = await loadStaticFiles(DASHBOARD_BUILD_DIR);
    if (files.size === 0) gw.logger.warn(`the dashboard is not built (${DASHBOARD_BUILD_DIR} is empty): /dashboard/ explains how to build it`);

    gw.addRoute({ method: 'GET', path: '/dashboard', access: 'public', handler: async (ctx) => redirect(ctx, '/dashboard/') });
    gw.addRoute({
      method: 'GET',
      path: '/dashboard/*',
      access: 'public',
      handler: async (ctx) => {
        const path = (ctx.req.url ?? '').split('?')[0]!.slice('/dashboard/'.length);
        if (files.size === 0) return send(ctx, 503, { body: Buffer.from(NOT_BUILT_PAGE), type: 'text/html; charset=utf-8', immutable: false });
        // The app routes by the URL's hash, so only '' is the page; anything else must be a built file.
        const file = files.get(path === '' ? 'index.html' : path);
        if (file === undefined) return sendError(ctx, routeNotFound('GET', `/dashboard/${path}`));
        send(ctx, 200, file);
      },
    });
  },
});

function send(ctx: RequestContext, status: number, file: StaticFile): void {
  ctx.status = status;
  ctx.firstByteMs ??= ctx.elapsed();
  ctx.res.writeHead(status, [
    'x-request-id', ctx.id,
    'content-type', file.type,
    'content-length', file.body.length,
    'cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
  ]);
  ctx.res.end(file.body);
}

function redirect(ctx: RequestContext, location: string): void {
  ctx.status = 308;
  ctx.firstByteMs ??= ctx.elapsed();
  ctx.res.writeHead(308, ['x-request-id', ctx.id, 'location', location, 'content-length', 0]);
  ctx.res.end();
}
