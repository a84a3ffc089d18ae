// Usage of an embeddings call, estimated: Gemini's embed answers carry no token counts, and a
// countTokens call per request would double the calls and the latency. Reporting 0 would book
// the call as free; the estimate is booked instead, and marked as one in `raw` so the audit
// log and anyone reconciling with Google's bill can tell it from a reported count.
//
// The estimate is one token per 4 bytes of UTF-8, rounded up per input: the usual ~4
// characters a token for English (the demo provider counts the same way), and for scripts whose
// characters take 2-3 bytes (Cyrillic, CJK) closer to Gemini's real counts than 4 characters
// would be. Rounding up errs on the side of charging, never of a free call.
import { emptyUsage, type Usage } from '../../core/types/usage.js';
import type { GeminiBatchEmbedRequest } from './types.js';

const BYTES_PER_TOKEN = 4;

/** What `raw` holds, so the audit log says how the numbers were made. */
export const ESTIMATE_MARK = Object.freeze({ estimated: true, method: 'ceil(utf8_bytes / 4) per input' });

export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

export function estimateEmbedUsage(request: GeminiBatchEmbedRequest): Usage {
  let tokens = 0;
  for (const { content } of request.requests) for (const part of content.parts) tokens += estimateTokens(part.text ?? '');
  const usage = emptyUsage();
  usage.input_tokens = tokens;
  usage.total_tokens = tokens;
  usage.raw = ESTIMATE_MARK;
  return usage;
}
