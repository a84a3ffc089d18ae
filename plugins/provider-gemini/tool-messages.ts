// Assistant tool calls and tool results as Gemini functionCall / functionResponse parts.
import { badRequest } from '../../core/errors.js';
import type { ToolCall } from '../../core/types/chat.js';
import { isRecord } from './is-record.js';
import { signatureOf } from './thought-signature.js';
import type { GeminiPart } from './types.js';

/** Gemini takes args as a JSON object, so the OpenAI arguments string must parse to one. */
export function parseArguments(raw: string, param: string): Record<string, unknown> {
  // Some clients send "" for a function without parameters.
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('tool call arguments are not valid JSON', param);
  }
  if (!isRecord(parsed)) throw badRequest('tool call arguments must be a JSON object', param);
  return parsed;
}

// The OpenAI tool_call id is not sent as functionCall.id: it may come from another provider or
// from Sluice's own numbering, and Gemini pairs calls with responses by name and order anyway.
export function functionCallPart(call: ToolCall, param: string): GeminiPart {
  const part: GeminiPart = {
    functionCall: { name: call.function.name, args: parseArguments(call.function.arguments, `${param}.function.arguments`) },
  };
  const signature = signatureOf(call);
  if (signature !== undefined) part.thoughtSignature = signature;
  return part;
}

/** A tool result is free text in OpenAI; Gemini wants an object, so it is wrapped as {result}. */
export function functionResponsePart(name: string, text: string): GeminiPart {
  let result: unknown = text;
  try {
    result = JSON.parse(text);
  } catch {
    // Not JSON: the model gets the text itself.
  }
  return { functionResponse: { name, response: { result } } };
}
