// Anthropic Messages API wire shapes (POST /v1/messages), only as far as the gateway reads
// or writes them. Response-side shapes keep index signatures so that fields Anthropic adds
// later survive a round trip through the audit log.

// ---- content blocks -------------------------------------------------------------------

export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  citations?: unknown[] | null;
}

export interface AnthropicUrlSource { type: 'url'; url: string }

export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | AnthropicUrlSource;
}

export interface AnthropicDocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string } | AnthropicUrlSource;
  title?: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
  is_error?: boolean;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Blocks the gateway puts in request messages. */
export type AnthropicRequestBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

/**
 * Blocks the gateway understands in responses. Anthropic also sends others (server tool
 * use, web search results); translators skip those at run time.
 */
export type AnthropicResponseBlock =
  | AnthropicTextBlock
  | AnthropicToolUseBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock;

// ---- request --------------------------------------------------------------------------

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicRequestBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicThinkingConfig {
  type: 'enabled';
  budget_tokens: number;
}

export interface AnthropicRequest {
  model: string;
  messages: AnthropicMessageParam[];
  max_tokens: number;
  system?: AnthropicTextBlock[];
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  metadata?: { user_id?: string };
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: AnthropicThinkingConfig;
}

// ---- response -------------------------------------------------------------------------

export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** Anthropic's input_tokens does NOT include the two cache counts: the three are disjoint. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null;
  service_tier?: string | null;
  [extra: string]: unknown;
}

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicResponseBlock[];
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  [extra: string]: unknown;
}

// ---- errors ---------------------------------------------------------------------------

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

// ---- stream events --------------------------------------------------------------------

export interface AnthropicMessageStartEvent { type: 'message_start'; message: AnthropicMessage }

export interface AnthropicContentBlockStartEvent {
  type: 'content_block_start';
  index: number;
  content_block: AnthropicResponseBlock;
}

export type AnthropicBlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: unknown };

export interface AnthropicContentBlockDeltaEvent {
  type: 'content_block_delta';
  index: number;
  delta: AnthropicBlockDelta;
}

export interface AnthropicContentBlockStopEvent { type: 'content_block_stop'; index: number }

/** message_delta usage is cumulative; fields other than output_tokens may be absent. */
export type AnthropicDeltaUsage = Partial<AnthropicUsage> & { output_tokens: number };

export interface AnthropicMessageDeltaEvent {
  type: 'message_delta';
  delta: { stop_reason: AnthropicStopReason | null; stop_sequence?: string | null };
  usage: AnthropicDeltaUsage;
}

export interface AnthropicMessageStopEvent { type: 'message_stop' }
export interface AnthropicPingEvent { type: 'ping' }
export interface AnthropicErrorEvent extends AnthropicErrorBody { type: 'error' }

export type AnthropicStreamEvent =
  | AnthropicMessageStartEvent
  | AnthropicContentBlockStartEvent
  | AnthropicContentBlockDeltaEvent
  | AnthropicContentBlockStopEvent
  | AnthropicMessageDeltaEvent
  | AnthropicMessageStopEvent
  | AnthropicPingEvent
  | AnthropicErrorEvent;
