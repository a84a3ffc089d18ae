// Calls into a worker thread of this plugin: each request carries an id, its answer comes back
// with it. A GatewayError thrown in the worker (a bad cursor) arrives as the same GatewayError;
// anything else as an Error with the worker's message. Messages the worker sends on its own
// (no id) go to `onEvent`.
import { dirname, extname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import { GatewayError, isGatewayError } from '../../core/errors.js';

interface Reply {
  id: number;
  result?: unknown;
  error?: { message: string; gateway?: ConstructorParameters<typeof GatewayError>[0] };
}

export interface Request {
  id: number;
  method: string;
  args: unknown[];
}

export class WorkerRpc {
  readonly worker: Worker;
  /** Set by the owner once the worker answered its first call. */
  opened = false;
  readonly #waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #next = 0;
  #exited: Error | null = null;

  /** Starts `<name>.ts` (sources, under tsx) or `<name>.js` (built) beside `base`. */
  constructor(base: string, name: string, workerData: unknown, onEvent: (message: unknown) => void = () => undefined) {
    this.worker = startWorker(new URL(`${name}${extname(fileURLToPath(base))}`, base), workerData);
    this.worker.on('message', (m: Reply | { id?: undefined }) => {
      if (m.id === undefined) return onEvent(m);
      const waiting = this.#waiting.get(m.id);
      if (waiting === undefined) return;
      this.#waiting.delete(m.id);
      if (m.error === undefined) waiting.resolve(m.result);
      else waiting.reject(m.error.gateway !== undefined ? new GatewayError(m.error.gateway) : new Error(m.error.message));
    });
    const fail = (err: Error): void => {
      this.#exited = err;
      for (const w of this.#waiting.values()) w.reject(err);
      this.#waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the ${name} worker exited (code ${code})`)));
  }

  /** A message that needs no answer. */
  send(message: object): void {
    if (this.#exited === null) this.worker.postMessage(message);
  }

  call<T>(method: string, ...args: unknown[]): Promise<T> {
    if (this.#exited !== null) return Promise.reject(this.#exited);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, args } satisfies Request);
    });
  }

  /** Calls `method` (the worker's own closing), then stops the thread. */
  async close(method = 'close'): Promise<unknown> {
    try {
      return await this.call(method);
    } finally {
      await this.worker.terminate();
    }
  }
}

/**
 * The workers' young generation: 2 MB semi-spaces instead of V8's 16 MB. A burst of entries grows
 * a young generation to its limit, and V8 keeps it grown while the process idles; a worker that
 * parses and stores entries in batches gains little from a big one. The old generation has no
 * cap of its own: `max_queue` bounds what the writer holds.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 6 };

/** A worker on a built .js file, or on a .ts source with tsx's loader registered in it first. */
function startWorker(file: URL, workerData: unknown): Worker {
  if (!file.pathname.endsWith('.ts')) return new Worker(file, { workerData, resourceLimits: RESOURCE_LIMITS });
  return new Worker(`import(${JSON.stringify(tsxApiUrl())}).then((m) => { m.register(); return import(${JSON.stringify(file.href)}); })`, { eval: true, workerData, resourceLimits: RESOURCE_LIMITS });
}

/** tsx's ESM API, whose `register()` lets a worker import .ts sources (its `exports` name it for `import` only, which createRequire cannot resolve). */
export function tsxApiUrl(): string {
  return pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
}

/** In a worker: answers each request with what `handle` returns or throws; other messages go to `onMessage`. */
export function serveRequests(handle: (method: string, args: unknown[]) => unknown, onMessage: (message: unknown) => void = () => undefined): void {
  parentPort!.on('message', (m: Request | { method?: undefined }) => {
    if (m.method === undefined) return onMessage(m);
    void (async () => {
      try {
        parentPort!.postMessage({ id: m.id, result: await handle(m.method, m.args) } satisfies Reply);
      } catch (err) {
        const e = err as Error;
        const gateway = isGatewayError(err) ? { status: err.status, type: err.type, message: err.message, code: err.code, param: err.param } : undefined;
        parentPort!.postMessage({ id: m.id, error: { message: e.message, ...(gateway === undefined ? {} : { gateway }) } } satisfies Reply);
      }
    })();
  });
}
