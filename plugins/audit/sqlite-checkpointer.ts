// WAL checkpoints off the event loop. SQLite copies its WAL back into the database file every
// 1000 pages, inside whichever commit crosses the mark: a copy and two fsyncs, ~10 ms on the
// test machine, every ~9,000 entries, on the thread that writes. A worker thread with its own
// connection checkpoints every second instead (PASSIVE: it neither waits for nor blocks the
// writer), and the writing connection keeps only a far higher mark, as a backstop should the
// worker fall behind or fail. The checkpoint's CPU is the same either way; only the pause moves.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const EVERY_MS = 1000;
/** The writing connection's own mark, in pages (SQLite's default is 1000). */
export const BACKSTOP_PAGES = 10_000;

// The worker's script, as source: under tsx a worker cannot load a .ts file (Node 20 does not
// apply --import loaders to workers), and this keeps one code path for tsx and the build.
// The last connection to close checkpoints what is left and removes the WAL.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage(err.message);
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

export class Checkpointer {
  readonly #worker: Worker;

  constructor(file: string, busyTimeoutMs: number, onError: (message: string) => void) {
    this.#worker = new Worker(SCRIPT, { eval: true, workerData: { driver: DRIVER, file, everyMs: EVERY_MS, busyTimeoutMs } });
    this.#worker.on('message', (message: string) => onError(message));
    this.#worker.on('error', (err) => onError(err.message));
    // Never what keeps the process alive.
    this.#worker.unref();
  }

  /** Asks the worker to close its connection and exit. */
  close(): void {
    this.#worker.postMessage('close');
  }
}
