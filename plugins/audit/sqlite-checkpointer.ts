// WAL checkpoints off the event loop. SQLite copies its WAL back into the database file every
// 1000 pages, inside whichever commit crosses the mark: a copy and two fsyncs, ~10 ms on the
// test machine, every ~9,000 entries, on the thread that writes. A worker thread with its own
// connection checkpoints every second instead (PASSIVE: it neither waits for nor blocks the
// writer), and the writing connection keeps only a far higher mark, as a backstop should the
// worker fall behind; should it fail, the writer goes back to SQLite's own checkpoints. The
// checkpoint's CPU is the same either way; only the pause moves.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const EVERY_MS = 1000;
/** The writing connection's own mark while the worker runs, in pages. */
export const BACKSTOP_PAGES = 10_000;
/** SQLite's default mark, for when the worker is gone. */
export const DEFAULT_PAGES = 1000;

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

export interface CheckpointerEvents {
  /** A checkpoint failed; the next one tries again. */
  onError: (message: string) => void;
  /** The worker died: checkpoints are the writer's again. */
  onGone: (message: string) => void;
}

export class Checkpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #closing = false;

  constructor(file: string, busyTimeoutMs: number, events: CheckpointerEvents) {
    this.#worker = new Worker(SCRIPT, { eval: true, workerData: { driver: DRIVER, file, everyMs: EVERY_MS, busyTimeoutMs } });
    this.#worker.on('message', (message: string) => events.onError(`a WAL checkpoint failed, the next one tries again: ${message}`));
    this.#worker.on('error', (err) => events.onGone(`the checkpoint thread failed: ${err.message}`));
    this.#exited = new Promise((resolve) => {
      this.#worker.on('exit', (code) => {
        if (!this.#closing) events.onGone(`the checkpoint thread exited (code ${code})`);
        resolve();
      });
    });
    // Never what keeps the process alive.
    this.#worker.unref();
  }

  /**
   * Asks the worker to close its connection and exit; resolves once it has. Its close may
   * still remove the WAL file: until then the data directory is not the gateway's to hand back.
   */
  close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = true;
      this.#worker.postMessage('close');
    }
    return this.#exited;
  }
}
