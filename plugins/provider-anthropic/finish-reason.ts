// Anthropic stop_reason -> OpenAI finish_reason, shared by the whole-message and stream paths.
import type { FinishReason } from '../../core/types/chat.js';
import type { AnthropicStopReason } from './types.js';

const FINISH_BY_STOP: Readonly<Record<AnthropicStopReason, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  // A server tool loop paused; the turn is over as far as an OpenAI client can tell.
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** Unknown future reasons read as 'stop': the model did stop, for a reason we cannot name. */
export function finishReasonFor(stop: AnthropicStopReason | string | null): FinishReason | null {
  if (stop === null) return null;
  return (FINISH_BY_STOP as Readonly<Record<string, FinishReason>>)[stop] ?? 'stop';
}
