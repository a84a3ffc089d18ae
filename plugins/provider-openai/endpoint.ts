// One OpenAI-style upstream: where it is, how it authenticates, and the few ways
// OpenAI-compatible servers differ. Every operation handler works from this description.
import type { ErrorMapper } from '../../core/http-client.js';
import type { ChatUsage } from '../../core/types/chat.js';
import type { ResponsesUsage } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';

export interface OpenAIEndpoint {
  /** The provider prefix (for errors and headers). */
  name: string;
  type: string;
  /** Base URL without a trailing slash, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** Sent on every call: credential, content type. Built once. */
  headers: Record<string, string>;
  /** The credential headers alone (also in `headers`): passthrough sends them in place of the client's. */
  authHeaders: Record<string, string>;
  /** The provider's error statuses and bodies as the contract's errors. */
  mapError: ErrorMapper;
  /** The URL of an operation (`/chat/completions`) for a model (Azure puts deployments in the path). */
  url(path: string, model: string): string;
  /** Chat usage to neutral usage (DeepSeek and OpenRouter add fields of their own). */
  usageFromChat(usage: ChatUsage): Usage;
  /** Responses usage to neutral usage (xAI reports its billed cost there). */
  usageFromResponses(usage: ResponsesUsage): Usage;
  /**
   * Reasoning levels the server accepts when the model's metadata does not list its own
   * (`reasoning_efforts` in the catalog); other levels go to the nearest of these.
   */
  reasoningEfforts: readonly string[];
  /**
   * Whether the server understands `stream_options.include_usage` (needed for usage on streams).
   * Servers that reject the field (Mistral: 422) report stream usage unasked; a client's own
   * `stream_options` is then held back too, or it would break the call.
   */
  streamUsageOption: boolean;
}
