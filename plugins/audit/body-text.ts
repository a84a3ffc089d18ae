// Bodies as stored text, optionally capped. Request bytes are kept as received (JSON stays the
// client's own JSON text, never re-serialised); the response object is serialised here, at
// flush time, never on the request path.

export interface BodyText {
  text: string | null;
  truncated: boolean;
}

const NONE: BodyText = Object.freeze({ text: null, truncated: false });

export function requestBodyText(raw: Buffer | null, cap: number | null): BodyText {
  if (raw === null) return NONE;
  return cut(raw, cap);
}

export function responseBodyText(body: unknown, cap: number | null): BodyText {
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
  if (cap === null || text.length * 3 <= cap) return { text, truncated: false };
  return cut(Buffer.from(text, 'utf8'), cap);
}

function cut(bytes: Buffer, cap: number | null): BodyText {
  if (cap === null || bytes.length <= cap) return { text: bytes.toString('utf8'), truncated: false };
  // Back up to the start of a UTF-8 sequence so the cut never leaves half a character.
  let end = cap;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.toString('utf8', 0, end), truncated: true };
}
