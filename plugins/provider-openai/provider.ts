// An OpenAI-style provider from its endpoint description: the operations it serves natively.
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler, Provider } from '../../core/provider.js';
import { usageFromChat, usageFromResponses } from '../../core/usage-mapping.js';
import { chatHandler } from './chat.js';
import { fromOpenAIError } from './errors.js';
import { embeddingsHandler } from './embeddings.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { listModels } from './models.js';
import { compactHandler, responsesHandler } from './responses.js';

export interface OpenAIProviderOptions {
  name: string;
  type: string;
  baseUrl: string;
  apiKey: string | null;
  /** Native operations this server has (all of OpenAI's by default). */
  operations?: ReadonlyArray<'chat' | 'responses' | 'compact' | 'embeddings'>;
  extraHeaders?: Record<string, string>;
  /** Headers that carry the key, in place of `authorization: Bearer <apiKey>` (Azure sends `api-key`). */
  authHeaders?: Record<string, string>;
  /** Where an operation goes, in place of `<baseUrl><path>` (Azure puts the deployment and api-version in it). */
  url?: OpenAIEndpoint['url'];
  streamUsageOption?: boolean;
  usageFromChat?: OpenAIEndpoint['usageFromChat'];
  usageFromResponses?: OpenAIEndpoint['usageFromResponses'];
  reasoningEfforts?: readonly string[];
}

/** OpenAI's levels for models the catalog says nothing about (gpt-5, o-series). */
export const OPENAI_REASONING_EFFORTS: readonly string[] = ['minimal', 'low', 'medium', 'high'];

export function openAIEndpoint(o: OpenAIProviderOptions): OpenAIEndpoint {
  const authHeaders: Record<string, string> = o.authHeaders ?? (o.apiKey !== null ? { authorization: `Bearer ${o.apiKey}` } : {});
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'sluice', ...(o.extraHeaders ?? {}), ...authHeaders };
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  return {
    name: o.name,
    type: o.type,
    baseUrl,
    headers,
    authHeaders,
    url: o.url ?? ((path) => baseUrl + path),
    mapError: (status, text, retryAfter) => fromOpenAIError(o.name, status, text, retryAfter),
    usageFromChat: o.usageFromChat ?? usageFromChat,
    usageFromResponses: o.usageFromResponses ?? usageFromResponses,
    reasoningEfforts: o.reasoningEfforts ?? OPENAI_REASONING_EFFORTS,
    streamUsageOption: o.streamUsageOption ?? true,
  };
}

const ALL_OPERATIONS = ['chat', 'responses', 'compact', 'embeddings'] as const;

export function createOpenAIProvider(upstream: UpstreamClient, ep: OpenAIEndpoint, operations: ReadonlyArray<string> = ALL_OPERATIONS): Provider {
  const handlers: Record<string, OperationHandler> = {
    chat: chatHandler(upstream, ep),
    responses: responsesHandler(upstream, ep),
    compact: compactHandler(upstream, ep),
    embeddings: embeddingsHandler(upstream, ep),
  };
  const enabled: Record<string, OperationHandler | undefined> = {};
  for (const op of operations) enabled[op] = handlers[op];
  return {
    name: ep.name,
    type: ep.type,
    operations: Object.freeze(enabled),
    listModels: listModels(upstream, ep),
    passthrough: { baseUrl: ep.baseUrl, authHeaders: ep.authHeaders },
  };
}
