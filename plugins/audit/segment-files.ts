// The audit's append-only segment files: one per UTC day of the entries' start time,
// `<dir>/2026-11-22.seg`, owner-only (they hold request bodies). The SQLite store owns them:
// each batch is appended with one positional write per day before the transaction that points
// to it commits, and read back by (offset, length). Calls are synchronous on purpose: a batch
// write lands in the page cache in ~0.1 ms, cheaper than a trip through libuv's pool, and
// reads serve admin requests by the slice.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync, writevSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const DAY_MS = 86_400_000;
const NAME = /^(\d{4})-(\d{2})-(\d{2})\.seg$/;
// Open files are kept for the days in use (today, and whatever a query reads); a few suffice.
const MAX_OPEN = 8;
// Buffers per writev() (Linux's IOV_MAX).
const MAX_IOV = 1024;

interface OpenFile {
  fd: number;
  size: number;
}

export function dayOf(ts: number): number {
  return Math.floor(ts / DAY_MS);
}

function writeRest(fd: number, bytes: Buffer, position: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

export class SegmentFiles {
  readonly dir: string;
  readonly #open = new Map<number, OpenFile>();

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  pathOf(day: number): string {
    return join(this.dir, `${new Date(day * DAY_MS).toISOString().slice(0, 10)}.seg`);
  }

  /** Appends the buffers to the day's file, in one writev() per 1024; returns where they start. */
  append(day: number, chunks: readonly Buffer[]): number {
    const file = this.#file(day, true)!;
    const start = file.size;
    let at = start;
    for (let i = 0; i < chunks.length; i += MAX_IOV) {
      const part = chunks.length <= MAX_IOV ? chunks : chunks.slice(i, i + MAX_IOV);
      let expected = 0;
      for (const chunk of part) expected += chunk.length;
      const written = writevSync(file.fd, part, at);
      // A regular file takes it all unless the disk is full; finish (or fail) byte-wise then.
      if (written < expected) writeRest(file.fd, Buffer.concat(part).subarray(written), at + written);
      at += expected;
    }
    file.size = at;
    return start;
  }

  /**
   * Reads `length` bytes at `offset` of the day's file into `into` (at 0); returns how many
   * were there (fewer when the file was cut short, 0 when it is gone).
   */
  read(day: number, offset: number, length: number, into: Buffer): number {
    const file = this.#file(day, false);
    if (file === null) return 0;
    let done = 0;
    while (done < length) {
      const n = readSync(file.fd, into, done, length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  }

  /** Days that have a file, oldest first. */
  days(): number[] {
    const days: number[] = [];
    for (const name of readdirSync(this.dir)) {
      const m = NAME.exec(name);
      if (m !== null) days.push(dayOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
    }
    return days.sort((a, b) => a - b);
  }

  delete(day: number): void {
    this.#close(day);
    unlinkSync(this.pathOf(day));
  }

  close(): void {
    for (const day of [...this.#open.keys()]) this.#close(day);
  }

  #file(day: number, create: boolean): OpenFile | null {
    let file = this.#open.get(day);
    if (file !== undefined) {
      // Most recently used last: the first entry is the one to close when too many are open.
      this.#open.delete(day);
      this.#open.set(day, file);
      return file;
    }
    let fd: number;
    try {
      // Positional writes at the size we track, not O_APPEND: a write that failed half-way is
      // overwritten by the retry instead of leaving its half behind.
      fd = openSync(this.pathOf(day), constants.O_RDWR | (create ? constants.O_CREAT : 0), 0o600);
    } catch (err) {
      if (!create && (err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    file = { fd, size: fstatSync(fd).size };
    this.#open.set(day, file);
    if (this.#open.size > MAX_OPEN) this.#close(this.#open.keys().next().value!);
    return file;
  }

  #close(day: number): void {
    const file = this.#open.get(day);
    if (file === undefined) return;
    this.#open.delete(day);
    closeSync(file.fd);
  }
}
