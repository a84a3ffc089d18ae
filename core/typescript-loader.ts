// Operators may write their plugins in TypeScript. The loader that runs them (tsx) adds 10-20 MB
// to the idle RSS and slows the start, so a compiled gateway registers it only when the config
// names a TypeScript plugin, just before importing it. Run from its sources, the core is itself
// loaded through tsx, which then needs nothing more.
const TYPESCRIPT_FILE = /\.[cm]?tsx?$/;
const CORE_RUNS_TYPESCRIPT = TYPESCRIPT_FILE.test(new URL(import.meta.url).pathname);

let registered: Promise<void> | null = null;

export function isTypeScriptFile(url: string): boolean {
  return url.startsWith('file:') && TYPESCRIPT_FILE.test(new URL(url).pathname);
}

/** Registers tsx's module hooks once; later imports of `.ts` files then work. */
export function loadTypeScript(): Promise<void> {
  if (CORE_RUNS_TYPESCRIPT) return Promise.resolve();
  registered ??= import('tsx/esm/api').then((tsx) => {
    tsx.register();
  });
  return registered;
}
