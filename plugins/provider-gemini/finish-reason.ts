// Gemini finishReason as an OpenAI finish_reason.
import type { FinishReason } from '../../core/types/chat.js';

// Every reason that means "stopped because a filter flagged the content".
const FILTERED = new Set([
  'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII',
  'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION',
]);

/**
 * MAX_TOKENS is `length`; filter reasons are `content_filter`. Anything else ends the turn:
 * `tool_calls` when the candidate called functions (Gemini says STOP then, having no reason of
 * its own for it), else `stop` (also for OTHER, LANGUAGE, MALFORMED_FUNCTION_CALL, ..., which
 * have no OpenAI counterpart).
 */
export function mapFinishReason(reason: string, sawFunctionCall: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return sawFunctionCall ? 'tool_calls' : 'stop';
}
