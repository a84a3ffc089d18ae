// One OpenAI-compatible provider as data: only the ways it differs from OpenAI's own API. The
// handlers, streams and model listing are provider-openai's, shared by every row.
import type { OpenAIEndpoint } from '../provider-openai/endpoint.js';

/** The operations a server answers natively; the others are derived (Responses from chat) or 501. */
export type NativeOperation = 'chat' | 'responses' | 'embeddings';

export interface CompatibleRow {
  /** Provider type, default prefix, and stem of its variables (`GROQ_API_KEY`, `GROQ_BASE_URL`). */
  type: string;
  /** Cloud providers are enabled by their key; self-hosted servers by their base URL (the key is then optional). */
  enabledBy: 'api_key' | 'base_url';
  /** The public OpenAI-compatible URL; self-hosted servers have none. */
  defaultBaseUrl?: string;
  operations: readonly NativeOperation[];
  /** False for servers that reject `stream_options` (they report stream usage unasked). */
  streamUsageOption?: false;
  /** Usage fields of the provider's own beside OpenAI's. */
  usageFromChat?: OpenAIEndpoint['usageFromChat'];
  usageFromResponses?: OpenAIEndpoint['usageFromResponses'];
  /** Reasoning levels the server takes (default: low, medium, high). */
  reasoningEfforts?: readonly string[];
  /** JSON-schema properties of the instance options the row accepts under `providers.<name>`. */
  options?: Record<string, object>;
  /** Upstream headers built once from the (validated) instance options. */
  headers?: (options: Record<string, unknown>) => Record<string, string>;
}
