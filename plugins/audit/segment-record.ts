// How one entry is laid out in a segment file:
//
//   ["<id>",<request bytes or -1>,<response bytes or -1>,<detail array>]\n<request><response>\n
//
// The first line is JSON (JSON text never holds a raw newline, so it ends at the first one);
// the bodies follow as the bytes received and sent, neither escaped nor re-encoded, which is
// what makes a record cheap to write and what a text search scans. -1 stands for no body.
import type { EntryRecord, RecordDetail } from './entry-record.js';
import { detailOf } from './record-detail.js';

export interface RecordHead {
  id: string;
  /** Bytes of the head line, newline included: the request body starts there. */
  headLength: number;
  /** -1: no body. */
  requestLength: number;
  responseLength: number;
  detail: RecordDetail;
}

export interface BodyBounds {
  /** Where the request body starts (the response body follows it). */
  bodies: number;
  requestLength: number;
  responseLength: number;
}

// Sticky: matched at a given position of a segment's text, with no slicing.
const HEAD_PREFIX = /\["(?:[^"\\]|\\.)*",(-?\d+),(-?\d+),/y;
const NEWLINE = 0x0a;
const CLOSE = 0x5d;

/**
 * The records of one batch for one day's file, as the list of buffers one writev() takes: the
 * heads (and any body that is text) encoded into one buffer, bodies received or sent as bytes
 * referenced where they are, so the kernel copies them once and JavaScript never does. Each
 * encode is a call into C++ that costs far more than a byte: the closing bracket and the
 * newlines are stored byte by byte instead. (Splicing the detail into its head's string saves
 * no more: the concatenation is flattened, a copy, before it is encoded.)
 */
export class SegmentBatch {
  /** Bytes of the batch so far. */
  length = 0;
  /** Where the batch landed in its file, once written. */
  fileOffset = 0;
  #text: Buffer;
  #textLength = 0;
  /** Where the text not yet in `#chunks` starts. */
  #textRun = 0;
  #chunks: Buffer[] = [];

  constructor(initialTextBytes: number) {
    this.#text = Buffer.allocUnsafe(initialTextBytes);
  }

  reset(): void {
    this.length = 0;
    this.#textLength = 0;
    this.#textRun = 0;
    this.#chunks = [];
  }

  /** Appends a record; returns its offset in the batch (its length is the growth of `length`). */
  add(r: EntryRecord): number {
    const start = this.length;
    const request = r.request_body;
    const response = r.response_body;
    const requestLength = request === null ? -1 : typeof request === 'string' ? Buffer.byteLength(request) : request.length;
    const responseLength = response === null ? -1 : typeof response === 'string' ? Buffer.byteLength(response) : response.length;
    this.#write(`[${JSON.stringify(r.id)},${requestLength},${responseLength},`, 0);
    this.#write(r.detail, 2);
    this.#byte(CLOSE);
    this.#byte(NEWLINE);
    if (request !== null) this.#body(request);
    if (response !== null) this.#body(response);
    this.#room(1);
    this.#byte(NEWLINE);
    return start;
  }

  /** The batch's bytes, in order. */
  chunks(): Buffer[] {
    this.#endTextRun();
    return this.#chunks;
  }

  #body(body: Buffer | string): void {
    if (typeof body === 'string') {
      this.#write(body, 0);
      return;
    }
    this.#endTextRun();
    this.#chunks.push(body);
    this.length += body.length;
  }

  /** Encodes text, with room for `more` bytes after it. */
  #write(text: string, more: number): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.#room(3 * text.length + more);
    const n = this.#text.write(text, this.#textLength);
    this.#textLength += n;
    this.length += n;
  }

  /** One byte, where room for it was made. */
  #byte(c: number): void {
    this.#text[this.#textLength++] = c;
    this.length++;
  }

  #room(bytes: number): void {
    if (this.#textLength + bytes <= this.#text.length) return;
    // The text written so far stays where it is (chunks point into it); the rest goes to a new buffer.
    this.#endTextRun();
    this.#text = Buffer.allocUnsafe(Math.max(this.#text.length * 2, bytes));
    this.#textLength = 0;
    this.#textRun = 0;
  }

  #endTextRun(): void {
    if (this.#textLength > this.#textRun) this.#chunks.push(this.#text.subarray(this.#textRun, this.#textLength));
    this.#textRun = this.#textLength;
  }
}

/** The head of the record at `start` of `bytes` (which must hold its first line), or null when it is not one. */
export function readHead(bytes: Buffer, start: number, end: number): RecordHead | null {
  const newline = bytes.indexOf(NEWLINE, start);
  if (newline === -1 || newline >= end) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8', start, newline));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return null;
  const [id, requestLength, responseLength, encoded] = parsed as unknown[];
  const detail = detailOf(encoded);
  if (typeof id !== 'string' || !Number.isInteger(requestLength) || !Number.isInteger(responseLength) || detail === null) return null;
  return { id, headLength: newline + 1 - start, requestLength: requestLength as number, responseLength: responseLength as number, detail };
}

/**
 * Where the bodies of the record at `start` lie, read from its head without parsing the JSON:
 * `text` is the segment's bytes as latin1 (one character per byte). Null when it is no record.
 */
export function readBodyBounds(text: string, start: number): BodyBounds | null {
  HEAD_PREFIX.lastIndex = start;
  const m = HEAD_PREFIX.exec(text);
  if (m === null) return null;
  const newline = text.indexOf('\n', HEAD_PREFIX.lastIndex);
  if (newline === -1) return null;
  return { bodies: newline + 1, requestLength: Number(m[1]), responseLength: Number(m[2]) };
}
