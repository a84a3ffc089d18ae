// Reading a request body once, bounded by the configured limit, and parsing it under the
// gateway's rules: a JSON object, no deeper than MAX_JSON_DEPTH, a model id a header can carry.
import type { IncomingMessage } from 'node:http';
import { invalidJson, badRequest, payloadTooLarge } from './errors.js';
import { isPrintableLatin1 } from './header-text.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

const EMPTY = Buffer.alloc(0);

/**
 * The body, at once when all of it has arrived: a small body usually comes in the packet of
 * the request head, and node has parsed it into the request's buffer by the time the auth stage
 * has yielded once (before it marks the request complete: its declared length tells). Taking it
 * with read() skips the data/end events, their listeners, two nextTicks and a promise.
 * Otherwise it is collected as it arrives.
 */
export function readBody(req: IncomingMessage, limit: number): Buffer | Promise<Buffer> {
  const declared = req.headers['content-length'];
  const length = declared === undefined ? -1 : Number(declared);
  if (length > limit) {
    req.resume();
    return Promise.reject(payloadTooLarge(limit));
  }
  if (req.complete || req.readableLength === length) {
    if (req.readableLength > limit) {
      req.resume();
      return Promise.reject(payloadTooLarge(limit));
    }
    return (req.read() as Buffer | null) ?? EMPTY;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        reject(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    // on, not once: 'end' and 'error' come at most once that matters (a promise settles once),
    // and once() wraps each listener in a bound function of its own.
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/** The body as a JSON object: anything else is the client's 400. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) throw badRequest('request body is required', null, 'missing_body');
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw invalidJson((err as Error).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('request body must be a JSON object', null, 'invalid_body');
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw badRequest(`request body nests deeper than ${MAX_JSON_DEPTH} levels`, null, 'json_too_deep');
  }
  return value as Record<string, unknown>;
}

/**
 * The body's `model` when it is a string (null otherwise: the router or the validator names the
 * problem). It is echoed in the x-gateway-model header, so an id a header cannot carry (a control
 * character, anything above U+00FF, which is also what invalid UTF-8 decodes to) is refused
 * here, before any provider is called.
 */
export function requestedModel(body: Record<string, unknown>): string | null {
  const model = body['model'];
  if (typeof model !== 'string') return null;
  if (!isPrintableLatin1(model)) {
    throw badRequest("'model' must be printable text: no control characters, nothing above U+00FF", 'model', 'invalid_model_id');
  }
  return model;
}
