// Deterministic demo embeddings: the same text always gives the same unit vector (a hash
// seeds a small PRNG), so similarity searches behave repeatably offline.
import { createHash } from 'node:crypto';
import { badRequest, modelNotFound } from '../../core/errors.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply } from '../../core/reply.js';
import type { Embedding, EmbeddingsRequest, EmbeddingsResponse } from '../../core/types/embeddings.js';
import { emptyUsage } from '../../core/types/usage.js';
import { DEMO_MODEL_NAMES } from './chat.js';
import { countTokens } from './tokens.js';

export const DEFAULT_DIMENSIONS = 256;

export function embed(text: string, dimensions: number): Float32Array {
  const seed = createHash('sha256').update(text).digest();
  let state = seed.readUInt32LE(0) || 1;
  const v = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    // xorshift32: cheap, deterministic, good enough to spread values.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const x = ((state >>> 0) / 0xffffffff) * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) v[i] = v[i]! * scale;
  return v;
}

/** OpenAI's base64 form: the little-endian float32 bytes. */
export function toBase64(v: Float32Array): string {
  const bytes = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) bytes.writeFloatLE(v[i]!, i * 4);
  return bytes.toString('base64');
}

function inputs(input: EmbeddingsRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  // Token arrays are embedded by their numbers' text: the demo has no vocabulary.
  return (input as unknown[]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
}

export function demoEmbeddings(): OperationHandler {
  return async (request, target) => {
    if (!DEMO_MODEL_NAMES.has(target.model)) throw modelNotFound(target.id);
    const req = request.body as unknown as EmbeddingsRequest;
    const dimensions = req.dimensions ?? DEFAULT_DIMENSIONS;
    if (dimensions > 4096) throw badRequest('dimensions must be at most 4096 for demo models', 'dimensions');
    const texts = inputs(req.input);
    let tokens = 0;
    const data: Embedding[] = texts.map((text, index) => {
      tokens += Math.max(1, countTokens(text));
      const v = embed(text, dimensions);
      return { object: 'embedding', index, embedding: req.encoding_format === 'base64' ? toBase64(v) : Array.from(v) };
    });
    const body: EmbeddingsResponse = { object: 'list', data, model: target.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
    const usage = emptyUsage();
    usage.input_tokens = tokens;
    usage.total_tokens = tokens;
    usage.raw = body.usage;
    return jsonReply(body, usage);
  };
}
