// A Gemini generateContent answer as an OpenAI chat completion plus neutral usage.
import type { ChatChoice, ChatCompletion, ChatMessage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import { mapFinishReason } from './finish-reason.js';
import { summarizeParts } from './parts-summary.js';
import { CallIds, toolCallFrom } from './tool-calls.js';
import type { GeminiCandidate, GeminiGenerateResponse } from './types.js';
import { chatUsageFrom, usageFromGemini } from './usage.js';

export { usageFromGemini } from './usage.js';

function choiceFrom(candidate: GeminiCandidate, position: number, ids: CallIds): ChatChoice {
  const summary = summarizeParts(candidate.content?.parts);
  const toolCalls = summary.calls.map((called) => toolCallFrom(called, ids.idFor(called)));
  // OpenAI sends null content beside tool calls, and a string otherwise.
  const message: ChatMessage = { role: 'assistant', content: summary.text === '' && toolCalls.length > 0 ? null : summary.text };
  if (summary.thoughts !== '') message.reasoning_content = summary.thoughts;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    index: candidate.index ?? position,
    message,
    finish_reason: mapFinishReason(candidate.finishReason ?? 'STOP', toolCalls.length > 0),
  };
}

// A blocked prompt comes back with promptFeedback.blockReason and no candidates at all.
function emptyChoice(res: GeminiGenerateResponse): ChatChoice {
  const blocked = res.promptFeedback?.blockReason !== undefined;
  return { index: 0, message: { role: 'assistant', content: '' }, finish_reason: blocked ? 'content_filter' : 'stop' };
}

export function fromGeminiResponse(
  res: GeminiGenerateResponse,
  modelId: string,
  id: string,
  created: number,
): { completion: ChatCompletion; usage: Usage } {
  const ids = new CallIds();
  const candidates = res.candidates ?? [];
  const choices = candidates.length === 0 ? [emptyChoice(res)] : candidates.map((c, i) => choiceFrom(c, i, ids));
  const usage = usageFromGemini(res.usageMetadata);
  const completion: ChatCompletion = {
    id,
    object: 'chat.completion',
    created,
    model: modelId,
    choices,
    usage: chatUsageFrom(usage),
  };
  return { completion, usage };
}
