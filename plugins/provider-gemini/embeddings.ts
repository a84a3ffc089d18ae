// OpenAI embeddings as Gemini batchEmbedContents, which takes many inputs in one call
// (embedContent takes one), and back.
//
// Usage: Gemini's embed answers carry no token counts (usageMetadata exists on Vertex AI only).
// The caller estimates them (embed-usage.ts) and passes the estimate in, so the client's
// `usage` and the audit log's agree, and the audit log's `raw` says it is an estimate.
import { badRequest } from '../../core/errors.js';
import type { Embedding, EmbeddingsRequest, EmbeddingsResponse } from '../../core/types/embeddings.js';
import type { Usage } from '../../core/types/usage.js';
import { float32Base64 } from './float32-base64.js';
import type { GeminiBatchEmbedRequest, GeminiContentEmbedding, GeminiEmbedResponse } from './types.js';

function textInputs(input: EmbeddingsRequest['input']): string[] {
  const list: unknown[] = Array.isArray(input) ? input : [input];
  if (list.length === 0) throw badRequest('input must not be empty', 'input');
  // Token-id input (numbers) is OpenAI-tokenizer specific; Gemini embeds text only.
  if (!list.every((item): item is string => typeof item === 'string')) {
    throw badRequest('this provider embeds text only: input must be a string or an array of strings', 'input');
  }
  return list;
}

/** "models/<name>", the form batchEmbedContents requires on every request. */
function modelPath(model: string): string {
  return model.startsWith('models/') ? model : `models/${model}`;
}

export function toGeminiEmbedRequest(req: EmbeddingsRequest, model: string): GeminiBatchEmbedRequest {
  const path = modelPath(model);
  return {
    requests: textInputs(req.input).map((text) => ({
      model: path,
      content: { parts: [{ text }] },
      ...(req.dimensions === undefined ? {} : { outputDimensionality: req.dimensions }),
    })),
  };
}

/** The vectors of a batch answer, or of a single embedContent answer. */
export function embeddingsOf(res: GeminiEmbedResponse): GeminiContentEmbedding[] {
  if (res.embeddings !== undefined) return res.embeddings;
  return res.embedding === undefined ? [] : [res.embedding];
}

/** The embeddings of `res` in OpenAI's shape; `usage` is what the caller counted for the call. */
export function fromGeminiEmbedResponse(
  res: GeminiEmbedResponse,
  modelId: string,
  encoding: 'float' | 'base64',
  usage: Usage,
): EmbeddingsResponse {
  const data: Embedding[] = embeddingsOf(res).map((e, index) => ({
    object: 'embedding',
    index,
    embedding: encoding === 'base64' ? float32Base64(e.values) : e.values,
  }));
  return { object: 'list', data, model: modelId, usage: { prompt_tokens: usage.input_tokens, total_tokens: usage.total_tokens } };
}
