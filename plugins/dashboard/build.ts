// Builds the dashboard app (app/) into dist/dashboard with Vite. Vite, Preact and uPlot are dev
// dependencies: without them (`npm ci --omit=dev`) this says so and exits 0, and the gateway
// then answers /dashboard/ with a page that explains how to build it.
import { fileURLToPath } from 'node:url';
import { DASHBOARD_BUILD_DIR } from './build-dir.js';

const APP_ROOT = fileURLToPath(new URL('./app', import.meta.url));

async function loadVite(): Promise<typeof import('vite') | null> {
  try {
    return await import('vite');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw err;
  }
}

const vite = await loadVite();
if (vite === null) {
  console.log('dashboard: not built (Vite is a dev dependency and is not installed); /dashboard/ will say how to build it');
} else {
  await vite.build({
    configFile: false,
    root: APP_ROOT,
    base: '/dashboard/',
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir: DASHBOARD_BUILD_DIR, emptyOutDir: true, sourcemap: false },
  });
  console.log(`dashboard: built into ${DASHBOARD_BUILD_DIR}`);
}
