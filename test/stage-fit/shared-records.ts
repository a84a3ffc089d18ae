// What a test plugin records for its test to read. Kept on globalThis: mocha loads test files
// through tsx's CommonJS path while the gateway imports plugins as ES modules, so a plugin's
// module runs twice and a module-level array would be two.
export function sharedRecords<T>(name: string): T[] {
  const key = Symbol.for(`sluice.test.${name}`);
  const holder = globalThis as Record<symbol, T[] | undefined>;
  return (holder[key] ??= []);
}
