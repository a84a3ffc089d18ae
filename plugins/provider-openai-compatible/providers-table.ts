// The OpenAI-compatible family, one row per provider, each stating only where it differs from
// OpenAI. Sources for every fact are in docs/providers/openai-compatible.md. Cloud rows are
// enabled by `<TYPE>_API_KEY`; self-hosted rows by `<TYPE>_BASE_URL` (no public default, key
// optional). `stream_options.include_usage` is sent unless a row says the server rejects it.
import { deepseekUsage } from './deepseek-usage.js';
import { OPENROUTER_OPTIONS, openrouterHeaders } from './openrouter-headers.js';
import { openrouterUsage } from './openrouter-usage.js';
import type { CompatibleRow } from './row.js';
import { xaiChatUsage, xaiResponsesUsage } from './xai-usage.js';

export const PROVIDERS: readonly CompatibleRow[] = Object.freeze([
  // Groq serves the Responses API itself, and no embeddings.
  { type: 'groq', enabledBy: 'api_key', defaultBaseUrl: 'https://api.groq.com/openai/v1', operations: ['chat', 'responses'] },
  // Mistral validates bodies strictly: `stream_options` is a 422; stream usage comes unasked.
  {
    type: 'mistral',
    enabledBy: 'api_key',
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    operations: ['chat', 'embeddings'],
    streamUsageOption: false,
  },
  // xAI: reasoning outside completion_tokens on chat, billed cost in ticks on both APIs.
  {
    type: 'xai',
    enabledBy: 'api_key',
    defaultBaseUrl: 'https://api.x.ai/v1',
    operations: ['chat', 'responses'],
    usageFromChat: xaiChatUsage,
    usageFromResponses: xaiResponsesUsage,
    // grok-3-mini takes low and high only.
    reasoningEfforts: ['low', 'high'],
  },
  // DeepSeek: chat only, context-cache hits in fields of its own.
  { type: 'deepseek', enabledBy: 'api_key', defaultBaseUrl: 'https://api.deepseek.com', operations: ['chat'], usageFromChat: deepseekUsage },
  // OpenRouter: the price of each call in usage, optional app-attribution headers.
  {
    type: 'openrouter',
    enabledBy: 'api_key',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    operations: ['chat', 'embeddings'],
    usageFromChat: openrouterUsage,
    options: OPENROUTER_OPTIONS,
    headers: openrouterHeaders,
  },
  { type: 'together', enabledBy: 'api_key', defaultBaseUrl: 'https://api.together.ai/v1', operations: ['chat', 'embeddings'] },
  { type: 'fireworks', enabledBy: 'api_key', defaultBaseUrl: 'https://api.fireworks.ai/inference/v1', operations: ['chat', 'responses', 'embeddings'] },
  { type: 'ollama', enabledBy: 'base_url', operations: ['chat', 'embeddings'] },
  { type: 'vllm', enabledBy: 'base_url', operations: ['chat', 'embeddings'] },
  { type: 'llamacpp', enabledBy: 'base_url', operations: ['chat', 'embeddings'] },
  { type: 'lmstudio', enabledBy: 'base_url', operations: ['chat', 'embeddings'] },
] satisfies CompatibleRow[]);
