// An OpenAI chat request as the body of Gemini's generateContent / streamGenerateContent.
// The model is not in the body: the caller puts it in the URL (models/{model}:generateContent).
import type { ChatRequest } from '../../core/types/chat.js';
import { toGeminiConversation } from './contents.js';
import { toGenerationConfig } from './generation-config.js';
import { toGeminiToolConfig, toGeminiTools } from './tools.js';
import type { GeminiGenerateRequest } from './types.js';

export { mapReasoningEffort } from './reasoning.js';

/**
 * `upstreamModel` is the Gemini model the request will be sent to (it decides the thinking
 * control); it defaults to `req.model` for callers that have already rewritten it.
 * Not translated: parallel_tool_calls and user (Gemini has no such knob) and logprobs (Gemini's
 * logprobsResult has a shape the response translator does not map).
 */
export function toGeminiRequest(req: ChatRequest, upstreamModel: string = req.model): GeminiGenerateRequest {
  const { contents, systemInstruction } = toGeminiConversation(req.messages);
  const body: GeminiGenerateRequest = { contents };
  if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
  const tools = toGeminiTools(req.tools);
  if (tools !== undefined) {
    body.tools = tools;
    const toolConfig = toGeminiToolConfig(req.tool_choice);
    if (toolConfig !== undefined) body.toolConfig = toolConfig;
  }
  const generationConfig = toGenerationConfig(req, upstreamModel);
  if (generationConfig !== undefined) body.generationConfig = generationConfig;
  return body;
}
