// How one entry is laid out in a segment file:
//
//   ["<id>",<request bytes or -1>,<response bytes or -1>,<detail array>]\n<request><response>\n
//
// The first line is JSON (JSON text never holds a raw newline, so it ends at the first one);
// the bodies follow as the bytes received and sent, neither escaped nor re-encoded, which is
// what makes a record cheap to write and what a text search scans. -1 stands for no body.
// The writer encodes a record as soon as it is serialised (encodeRecord) and queues the bytes;
// a batch's records then go to their day's file in one writev.
import type { AuditEntry } from './entry.js';
import { entryFromRecord, isEncoded } from './entry-record.js';
import type { EncodedRecord, EntryRecord, RecordColumns, RecordDetail, StorableEntry } from './entry-record.js';
import { detailOf } from './record-detail.js';
import * as slab from './record-slab.js';

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

/** The records of one batch for one day's file, as the list of buffers one writev() takes. */
export class SegmentBatch {
  /** Bytes of the batch so far. */
  length = 0;
  /** Where the batch landed in its file, once written. */
  fileOffset = 0;
  #chunks: Buffer[] = [];

  reset(): void {
    this.length = 0;
    this.#chunks = [];
  }

  /** Appends a record; returns its offset in the batch (its length is its bytes'). */
  add(r: EncodedRecord): number {
    const start = this.length;
    this.#chunks.push(r.encoded);
    this.length += r.encoded.length;
    return start;
  }

  /** The batch's bytes, in order, handed over once: the batch keeps no reference to them. */
  takeChunks(): Buffer[] {
    const chunks = this.#chunks;
    this.#chunks = [];
    return chunks;
  }
}

/**
 * A record's bytes, laid out as above, written in place into a slab (record-slab.ts): the bodies
 * received or sent are copied in as bytes (a memcpy each), text is encoded once. The columns
 * stay values.
 */
export function encodeRecord(r: EntryRecord): EncodedRecord {
  const request = r.request_body;
  const response = r.response_body;
  const requestLength = request === null ? -1 : typeof request === 'string' ? Buffer.byteLength(request) : request.length;
  const responseLength = response === null ? -1 : typeof response === 'string' ? Buffer.byteLength(response) : response.length;
  const head = `[${JSON.stringify(r.id)},${requestLength},${responseLength},`;
  const detail = r.detail;
  // UTF-8 takes at most 3 bytes per UTF-16 unit of the text.
  const bytes = slab.roomFor(3 * (head.length + detail.length) + 3 + Math.max(requestLength, 0) + Math.max(responseLength, 0));
  const start = slab.start();
  let at = start + bytes.write(head, start);
  at += bytes.write(detail, at);
  bytes[at++] = CLOSE;
  bytes[at++] = NEWLINE;
  if (request !== null) at += put(bytes, at, request);
  if (response !== null) at += put(bytes, at, response);
  bytes[at++] = NEWLINE;
  return {
    id: r.id,
    ts: r.ts,
    model: r.model,
    resolved_model: r.resolved_model,
    provider: r.provider,
    key_id: r.key_id,
    status: r.status,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    total_tokens: r.total_tokens,
    cost_pico: r.cost_pico,
    labels: r.labels,
    encoded: slab.take(at - start),
  };
}

/** Gives the bytes of encoded records back to their slab, once nothing will read them again. */
export function releaseRecords(entries: readonly StorableEntry[]): void {
  for (const e of entries) if (isEncoded(e)) slab.release(e.encoded);
}

function put(bytes: Buffer, at: number, body: Buffer | string): number {
  return typeof body === 'string' ? bytes.write(body, at) : body.copy(bytes, at);
}

/** The whole entry an encoded record stands for (a spill file holds whole entries). */
export function decodeRecord(e: EncodedRecord): AuditEntry {
  const bytes = e.encoded;
  const head = readHead(bytes, 0, bytes.length);
  if (head === null) throw new Error(`audit record ${e.id} is not readable`);
  return entryOfBytes(e, head, bytes, bytes.length);
}

/**
 * The entry of the record whose head is `head`, its bytes the first `read` of `bytes`, its
 * columns from its row. Bodies that did not make it to the file (a crash) are left out.
 */
export function entryOfBytes(columns: RecordColumns, head: RecordHead, bytes: Buffer, read: number): AuditEntry {
  const requestStart = head.headLength;
  const responseStart = requestStart + Math.max(head.requestLength, 0);
  if (responseStart + Math.max(head.responseLength, 0) > read) return entryFromRecord(columns, head.detail, null, null);
  return entryFromRecord(
    columns,
    head.detail,
    head.requestLength < 0 ? null : bytes.toString('utf8', requestStart, responseStart),
    head.responseLength < 0 ? null : bytes.toString('utf8', responseStart, responseStart + head.responseLength),
  );
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
