// Gemini's models list (GET /v1beta/models) as gateway Model entries.
import type { Model, ModelMetadata } from '../../core/types/models.js';
import type { GeminiModel, GeminiModelList } from './types.js';

/** Gateway modes a model serves, from the Gemini methods it supports. */
function modesOf(methods: string[] | undefined): string[] {
  const modes: string[] = [];
  if (methods?.includes('generateContent')) modes.push('chat');
  if (methods?.includes('embedContent')) modes.push('embeddings');
  return modes;
}

function metadataOf(model: GeminiModel, modes: string[]): ModelMetadata {
  const metadata: ModelMetadata = { modes };
  if (model.displayName !== undefined) metadata.display_name = model.displayName;
  if (model.description !== undefined) metadata.description = model.description;
  if (model.inputTokenLimit !== undefined) metadata.context_window = model.inputTokenLimit;
  if (model.outputTokenLimit !== undefined) metadata.max_output_tokens = model.outputTokenLimit;
  if (model.thinking !== undefined) metadata.capabilities = { reasoning: model.thinking };
  return metadata;
}

/**
 * One Model per Gemini model that serves chat or embeddings; the rest (image, answer, predict-only
 * models) cannot be reached through the gateway's routes and are left out. Gemini gives no
 * creation time, so `created` is 0.
 */
export function fromGeminiModelList(list: GeminiModelList, prefix: string): Model[] {
  return (list.models ?? []).flatMap((model) => {
    const modes = modesOf(model.supportedGenerationMethods);
    if (modes.length === 0) return [];
    const entry: Model = {
      id: `${prefix}/${model.name.replace(/^models\//, '')}`,
      object: 'model',
      created: 0,
      owned_by: 'google',
      metadata: metadataOf(model, modes),
    };
    return [entry];
  });
}
