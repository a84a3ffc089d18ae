// Gemini 3 returns a thoughtSignature on functionCall parts and rejects (400) a later request
// whose history carries the call without it. OpenAI tool calls have no such field, so the
// signature rides in `extra_content.google.thought_signature`, the place Google's own
// OpenAI-compatible endpoint uses: clients already built for that endpoint keep it.
import type { ToolCall } from '../../core/types/chat.js';
import { isRecord } from './is-record.js';

export interface SignatureCarrier { extra_content?: { google: { thought_signature: string } } }

/** The signature a client echoed back on a tool call, if any. */
export function signatureOf(call: ToolCall): string | undefined {
  const extra: unknown = (call as ToolCall & { extra_content?: unknown }).extra_content;
  if (!isRecord(extra) || !isRecord(extra.google)) return undefined;
  const signature = extra.google.thought_signature;
  return typeof signature === 'string' ? signature : undefined;
}

/** The extra_content that carries `signature`, or an empty object when there is none. */
export function signatureCarrier(signature: string | undefined): SignatureCarrier {
  return signature === undefined ? {} : { extra_content: { google: { thought_signature: signature } } };
}
