// Bodies as the audit stores them: text, optionally cut at a byte cap on a UTF-8 character
// boundary. A response object (a reassembled stream, an error envelope) is serialised here, by
// the writer, never on the request path.

export interface StoredBody {
  body: string | null;
  truncated: boolean;
}

const NONE: StoredBody = Object.freeze({ body: null, truncated: false });

export function requestBody(raw: Buffer | null, cap: number | null): StoredBody {
  return raw === null ? NONE : cut(raw, cap);
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

function cut(bytes: Buffer, cap: number | null): StoredBody {
  if (cap === null || bytes.length <= cap) return { body: bytes.toString('utf8'), truncated: false };
  // Back up to the start of a UTF-8 sequence so the cut never leaves half a character.
  let end = cap;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { body: bytes.toString('utf8', 0, end), truncated: true };
}
