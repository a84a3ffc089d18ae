// Gemini functionCall parts as OpenAI tool calls.
import type { ToolCall } from '../../core/types/chat.js';
import type { CalledFunction } from './parts-summary.js';
import { signatureCarrier, type SignatureCarrier } from './thought-signature.js';

/** Hands out `call_<n>` ids, in order, for calls that Gemini sent without one. */
export class CallIds {
  private next = 0;

  idFor(called: CalledFunction): string {
    const id = called.call.id ?? `call_${this.next}`;
    this.next += 1;
    return id;
  }
}

export function toolCallFrom(called: CalledFunction, id: string): ToolCall & SignatureCarrier {
  return {
    id,
    type: 'function',
    function: { name: called.call.name, arguments: JSON.stringify(called.call.args ?? {}) },
    ...signatureCarrier(called.signature),
  };
}
