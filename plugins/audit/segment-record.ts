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

/** The records of one batch for one day's file, built into one buffer for a single write. */
export class SegmentBatch {
  buffer: Buffer;
  length = 0;
  /** Where the batch landed in its file, once written. */
  fileOffset = 0;

  constructor(initialBytes: number) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  reset(): void {
    this.length = 0;
  }

  /** Appends a record; returns its offset in the batch (its length is the growth of `length`). */
  add(r: EntryRecord): number {
    const start = this.length;
    const request = r.request_body;
    const response = r.response_body;
    const requestLength = request === null ? -1 : typeof request === 'string' ? Buffer.byteLength(request) : request.length;
    const responseLength = response === null ? -1 : typeof response === 'string' ? Buffer.byteLength(response) : response.length;
    const prefix = `[${JSON.stringify(r.id)},${requestLength},${responseLength},`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.#reserve(3 * (prefix.length + r.detail.length) + 3 + Math.max(requestLength, 0) + Math.max(responseLength, 0));
    const buffer = this.buffer;
    let at = start + buffer.write(prefix, start);
    at += buffer.write(r.detail, at);
    buffer[at++] = 0x5d; // ]
    buffer[at++] = NEWLINE;
    if (request !== null) at += typeof request === 'string' ? buffer.write(request, at) : request.copy(buffer, at);
    if (response !== null) at += typeof response === 'string' ? buffer.write(response, at) : response.copy(buffer, at);
    buffer[at++] = NEWLINE;
    this.length = at;
    return start;
  }

  #reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
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
