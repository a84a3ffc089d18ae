// Bodies as stored, optionally capped. Request bytes are kept as received and a response the
// core forwarded untouched as the bytes sent: neither is decoded, copied or re-serialised on
// the way to the store (a store writes them as they are). A response object (a reassembled
// stream, an error envelope) is serialised here, at flush time, never on the request path.

export interface StoredBody {
  /** Bytes as received or sent, or JSON text; null when there was no body. */
  body: Buffer | string | null;
  truncated: boolean;
}

const NONE: StoredBody = Object.freeze({ body: null, truncated: false });

export function requestBody(raw: Buffer | null, cap: number | null): StoredBody {
  if (raw === null) return NONE;
  return cut(raw, cap);
}

export function responseBody(body: unknown, cap: number | null): StoredBody {
  if (body === null || body === undefined) return NONE;
  if (Buffer.isBuffer(body)) return cut(body, cap);
  let text: string;
  if (typeof body === 'string') text = body;
  else {
    try {
      text = JSON.stringify(body);
    } catch (err) {
      // A body the core answered with was serialisable once; failing now means a plugin
      // mutated it afterwards. Say so rather than drop the entry.
      text = `[unserializable response body: ${(err as Error).message}]`;
    }
  }
  // Byte length only matters when capping; skip the UTF-8 encode otherwise.
  if (cap === null || text.length * 3 <= cap) return { body: text, truncated: false };
  return cut(Buffer.from(text, 'utf8'), cap);
}

/** A body's text, as the store gives it back. */
export function bodyText(body: Buffer | string | null): string | null {
  return body === null || typeof body === 'string' ? body : body.toString('utf8');
}

function cut(bytes: Buffer, cap: number | null): StoredBody {
  if (cap === null || bytes.length <= cap) return { body: bytes, truncated: false };
  // Back up to the start of a UTF-8 sequence so the cut never leaves half a character.
  let end = cap;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  // A view, not a copy: a request's buffers are never reused (entry.ts).
  return { body: bytes.subarray(0, end), truncated: true };
}
