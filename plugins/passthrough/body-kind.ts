// How a provider's answer is read for usage, from its headers: an event stream event by
// event, JSON once it ended, anything else (binary, compressed) not at all.
import type { IncomingHttpHeaders } from 'node:http';

export type BodyKind = 'sse' | 'json' | 'opaque';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

export function bodyKind(headers: IncomingHttpHeaders): BodyKind {
  const encoding = headers['content-encoding'];
  // Compressed bytes are passed on as they are; reading them would mean inflating a copy.
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return 'opaque';
  const type = headers['content-type'];
  if (type === undefined) return 'opaque';
  if (type.toLowerCase().startsWith('text/event-stream')) return 'sse';
  return JSON_TYPE.test(type) ? 'json' : 'opaque';
}
