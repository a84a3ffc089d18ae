// What a candidate's parts say, sorted into the three things an OpenAI message carries.
import type { GeminiFunctionCall, GeminiPart } from './types.js';

export interface CalledFunction { call: GeminiFunctionCall; signature: string | undefined }

export interface PartsSummary {
  /** Answer text, parts joined in order. */
  text: string;
  /** Thought-summary text (parts marked `thought: true`). */
  thoughts: string;
  calls: CalledFunction[];
}

export function summarizeParts(parts: GeminiPart[] | undefined): PartsSummary {
  const summary: PartsSummary = { text: '', thoughts: '', calls: [] };
  for (const part of parts ?? []) {
    if (part.functionCall !== undefined) summary.calls.push({ call: part.functionCall, signature: part.thoughtSignature });
    else if (part.text !== undefined && part.thought === true) summary.thoughts += part.text;
    else if (part.text !== undefined) summary.text += part.text;
    // Anything else (a signature-only part, executable code, inline media) has no OpenAI slot.
  }
  return summary;
}
