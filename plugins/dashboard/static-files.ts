// The built single-page app, read into memory once at boot: a few hundred kilobytes, so every
// request is a Map lookup with no file I/O, and only files the build produced can be served.
import { readFile, readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';

export interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  /** Vite names assets by content hash, so they never change; index.html always may. */
  readonly immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** The files under `dir` by their path relative to it (`index.html`, `assets/index-3f2a.js`); empty if not built. */
export async function loadStaticFiles(dir: string): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  let names: string[];
  try {
    names = await readdir(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return files;
    throw err;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const path = relative(dir, join(dir, name)).split(sep).join('/');
    files.set(path, { body: await readFile(join(dir, name)), type, immutable: path.startsWith('assets/') });
  }
  return files;
}
