// batchEmbedContents takes at most 100 requests per call (Gemini answers 400 "at most 100
// requests can be in one batch"), while an OpenAI client may send up to 2048 inputs: a larger
// request is cut into batches of 100, in order.
import type { GeminiBatchEmbedRequest } from './types.js';

export const MAX_BATCH = 100;

export function splitBatches(request: GeminiBatchEmbedRequest, size: number = MAX_BATCH): GeminiBatchEmbedRequest[] {
  const batches: GeminiBatchEmbedRequest[] = [];
  for (let start = 0; start < request.requests.length; start += size) batches.push({ requests: request.requests.slice(start, start + size) });
  return batches;
}
