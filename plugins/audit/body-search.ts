// The audit list's `q`: a literal substring of the request or response body, case-insensitive
// for ASCII letters only (what SQL's LIKE does), searched in the segment files. Rows come
// newest first, which is nearly the files' order backwards, so the files are read in large
// chunks ending at the row asked about; each chunk is decoded once as latin1 (one character
// per byte, so string positions are file offsets) and searched once for every occurrence with
// a case-insensitive RegExp (~1 GB/s here, faster than lowercasing the chunk first). A row
// then costs a binary search among them, and its head is read only when an occurrence falls
// inside its record. The RegExp also folds latin1 letters beyond ASCII: occurrences are
// checked against the raw bytes, so that never makes a false match.
import { readBodyBounds } from './segment-record.js';
import type { SegmentFiles } from './segment-files.js';

const MAX_CHUNK = 4 << 20;
const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const MIN_CHUNK = 64 << 10;
// Rows arriving late (long requests) sit out of file order: a second chunk absorbs them.
const CHUNKS_KEPT = 2;

interface Chunk {
  day: number;
  start: number;
  end: number;
  raw: Buffer;
  /** Positions (from `start`) where q may occur (checked against `raw`), ascending. */
  hits: number[];
  text: string;
  /** Bytes of the rows it answered: how dense the rows are decides the next chunk's size. */
  served: number;
}

export class BodySearch {
  readonly #files: SegmentFiles;
  readonly #bytes: Buffer;
  readonly #pattern: RegExp;
  readonly #chunks: Chunk[] = [];
  #size = MAX_CHUNK;

  constructor(q: string, files: SegmentFiles) {
    this.#files = files;
    this.#bytes = Buffer.from(q, 'utf8');
    this.#pattern = new RegExp(this.#bytes.toString('latin1').replace(REGEXP_SPECIAL, '\\$&'), 'gi');
  }

  /** Whether the record of `len` bytes at `off` in the day's file has q in one of its bodies. */
  matches(day: number, off: number, len: number): boolean {
    const chunk = this.#chunkFor(day, off, len);
    if (chunk === null) return false;
    chunk.served += len;
    const at = off - chunk.start;
    const hits = chunk.hits;
    let i = firstAtOrAfter(hits, at);
    if (i === hits.length || hits[i]! >= at + len) return false;
    const bounds = readBodyBounds(chunk.text, at);
    if (bounds === null) return false;
    const requestEnd = bounds.bodies + Math.max(bounds.requestLength, 0);
    const responseEnd = requestEnd + Math.max(bounds.responseLength, 0);
    const width = this.#bytes.length;
    for (i = firstAtOrAfter(hits, bounds.bodies); i < hits.length; i++) {
      const hit = hits[i]!;
      if (hit + width > responseEnd) return false;
      // Inside one body, not across the two.
      if ((hit + width <= requestEnd || hit >= requestEnd) && this.#equalAt(chunk.raw, hit)) return true;
    }
    return false;
  }

  #chunkFor(day: number, off: number, len: number): Chunk | null {
    for (const chunk of this.#chunks) {
      if (chunk.day === day && chunk.start <= off && off + len <= chunk.end) return chunk;
    }
    const start = Math.max(0, off + len - Math.max(len, this.#size));
    const raw = Buffer.allocUnsafe(off + len - start);
    const read = this.#files.read(day, start, raw.length, raw);
    // Cut short (a crash) or gone: the record is not there to match.
    if (read < raw.length) return null;
    const text = raw.toString('latin1');
    const hits: number[] = [];
    const pattern = this.#pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      hits.push(m.index);
      // Overlapping occurrences too: the first may straddle a boundary the next does not.
      pattern.lastIndex = m.index + 1;
    }
    const chunk: Chunk = { day, start, end: off + len, raw, hits, text, served: 0 };
    this.#chunks.unshift(chunk);
    if (this.#chunks.length > CHUNKS_KEPT) this.#resize(this.#chunks.pop()!);
    return chunk;
  }

  /** Dense rows (a scan of everything) keep chunks large; sparse ones (a rare key) shrink them. */
  #resize(done: Chunk): void {
    this.#size = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, done.served * 2));
  }

  /** q's bytes at `at`: ASCII letters in either case, every other byte exactly. */
  #equalAt(raw: Buffer, at: number): boolean {
    const q = this.#bytes;
    for (let i = 0; i < q.length; i++) {
      const a = raw[at + i]!;
      const b = q[i]!;
      if (a === b) continue;
      const lower = a | 0x20;
      if (lower !== (b | 0x20) || lower < 0x61 || lower > 0x7a) return false;
    }
    return true;
  }
}

function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
