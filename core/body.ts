// Reading a request body once, bounded by the configured limit.
import type { IncomingMessage } from 'node:http';
import { invalidJson, badRequest, payloadTooLarge } from './errors.js';

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.reject(payloadTooLarge(limit));
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
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once('error', reject);
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
  return value as Record<string, unknown>;
}
