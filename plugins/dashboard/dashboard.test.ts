// The dashboard's routes: the page and its hashed assets from the build, with their caching and
// security headers; anything else under /dashboard/ a 404 in the error envelope.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawRequest } from '../../test/helpers/net.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { DASHBOARD_BUILD_DIR } from './build-dir.js';
import { loadStaticFiles } from './static-files.js';

describe('dashboard plugin routes', () => {
  let gw: TestGateway;

  before(async function () {
    if (!existsSync(join(DASHBOARD_BUILD_DIR, 'index.html'))) throw new Error('the dashboard is not built: npm run build:dashboard (npm test does)');
    gw = await startTestGateway();
  });
  after(() => gw?.close());

  it('serves the page at /dashboard/ without a credential, never cached, under a same-origin CSP', async () => {
    const res = await fetch(`${gw.url}/dashboard/`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('no-cache');
    expect(res.headers.get('content-security-policy')).to.match(/^default-src 'self';/);
    expect(await res.text()).to.match(/<script type="module" crossorigin src="\/dashboard\/assets\/index-[\w-]+\.js"><\/script>/);
  });

  it('serves a hashed asset as immutable', async () => {
    const html = await (await fetch(`${gw.url}/dashboard/`)).text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await fetch(gw.url + script);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).to.deep.equal([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
  });

  it('redirects /dashboard to /dashboard/', async () => {
    const res = await fetch(`${gw.url}/dashboard`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).to.deep.equal([308, '/dashboard/']);
  });

  it('answers a path that is not a built file, or climbs out, with a 404 envelope', async () => {
    for (const path of ['/dashboard/nothing.js', '/dashboard/%2e%2e/package.json', '/dashboard/..%2fpackage.json']) {
      const res = await rawRequest(gw.url + path);
      expect(res.status, path).to.equal(404);
      expect((JSON.parse(res.body) as { error: { type: string } }).error.type, path).to.equal('not_found_error');
    }
  });

  it('reads only the files a build produced, by their path under the build folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dashboard-'));
    try {
      await mkdir(join(dir, 'assets'));
      await writeFile(join(dir, 'index.html'), '<p>hi</p>');
      await writeFile(join(dir, 'assets', 'app-1.js'), 'x');
      await writeFile(join(dir, 'notes.txt'), 'not served');
      const files = await loadStaticFiles(dir);
      expect([...files].map(([path, f]) => [path, f.type, f.immutable, f.body.toString()]).sort()).to.deep.equal([
        ['assets/app-1.js', 'text/javascript; charset=utf-8', true, 'x'],
        ['index.html', 'text/html; charset=utf-8', false, '<p>hi</p>'],
      ]);
      expect((await loadStaticFiles(join(dir, 'missing'))).size).to.equal(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
