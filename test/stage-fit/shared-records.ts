// What a test plugin records for its test to read. Kept on globalThis: mocha loads test files
// through tsx's CommonJS path while the gateway imports plugins as ES modules, so a plugin's
// module runs twice and a module-level array would be two.
import { fileURLToPath } from 'node:url';

export function sharedRecords<T>(name: string): T[] {
  const key = Symbol.for(`sluice.test.${name}`);
  const holder = globalThis as Record<symbol, T[] | undefined>;
  return (holder[key] ??= []);
}

/** The `plugins:` entry that loads a plugin file by path, with options. */
export function pluginEntry(moduleUrl: string, options?: Record<string, unknown>): { path: string; options?: Record<string, unknown> } {
  return options === undefined ? { path: fileURLToPath(moduleUrl) } : { path: fileURLToPath(moduleUrl), options };
}
