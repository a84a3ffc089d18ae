// OpenAI chat request -> Anthropic Messages request. Pure: no I/O, no defaults from config
// other than what the caller passes in `opts`.
//
// OpenAI fields with no Anthropic counterpart (presence/frequency penalties, seed, logprobs,
// logit_bias) are ignored rather than rejected, as clients send them by habit; `n > 1` is
// rejected because silently answering with one choice would break the client's indexing.
import { badRequest } from '../../core/errors.js';
import type { ChatRequest, ReasoningEffort } from '../../core/types/chat.js';
import { jsonInstruction } from './json-instruction.js';
import { toAnthropicConversation } from './messages.js';
import { fitThinking, mapReasoningEffort, type FittedThinking } from './thinking.js';
import { forcesToolUse, toAnthropicTool, toAnthropicToolChoice } from './tools.js';
import type { AnthropicMessageParam, AnthropicRequest, AnthropicToolChoice } from './types.js';

export { mapReasoningEffort } from './thinking.js';

export interface AnthropicRequestOptions {
  /** max_tokens when the client sent none: Anthropic requires it. */
  defaultMaxTokens: number;
  /** The model's output ceiling when known (catalog metadata); thinking budgets are fitted under it. */
  maxOutputTokens?: number;
}

/**
 * Whether the request continues an assistant turn that called tools. With thinking on,
 * Anthropic then requires that turn's thinking block, signature included, which
 * OpenAI-shaped history cannot carry back.
 */
function continuesToolTurn(messages: readonly AnthropicMessageParam[]): boolean {
  const last = messages[messages.length - 1];
  return last !== undefined && last.role === 'user' && last.content.some((block) => block.type === 'tool_result');
}

/**
 * Reasoning effort is a preference, so thinking is left off where Anthropic would reject it:
 * when the client forces a tool (a hard contract) and in the middle of a tool-calling turn.
 */
function thinkingFor(
  effort: ReasoningEffort | undefined,
  answerTokens: number,
  toolChoice: AnthropicToolChoice | undefined,
  messages: readonly AnthropicMessageParam[],
  ceiling: number | undefined,
): FittedThinking | null {
  if (effort === undefined || forcesToolUse(toolChoice) || continuesToolTurn(messages)) return null;
  const budget = mapReasoningEffort(effort);
  return budget === null ? null : fitThinking(budget, answerTokens, ceiling);
}

function stopSequences(stop: ChatRequest['stop']): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  const list = typeof stop === 'string' ? [stop] : stop;
  return list.length > 0 ? [...list] : undefined;
}

/**
 * With extended thinking on, Anthropic rejects any temperature but its default of 1 (thinking
 * needs its own sampling) and top_p below 0.95; such values are dropped rather than failing a
 * request that only asked for more reasoning.
 */
function applySampling(out: AnthropicRequest, req: ChatRequest, thinking: boolean): void {
  if (req.temperature !== undefined && !thinking) out.temperature = req.temperature;
  if (req.top_p !== undefined && (!thinking || req.top_p >= 0.95)) out.top_p = req.top_p;
}

export function toAnthropicRequest(req: ChatRequest, model: string, opts: AnthropicRequestOptions): AnthropicRequest {
  if (req.n !== undefined && req.n > 1) throw badRequest('n > 1 is not supported by this provider', 'n');

  const { system, messages } = toAnthropicConversation(req.messages);
  const instruction = jsonInstruction(req.response_format);
  if (instruction !== null) system.push({ type: 'text', text: instruction });

  const tools = (req.tools ?? []).map(toAnthropicTool);
  // Anthropic rejects a tool_choice without tools.
  const toolChoice = tools.length > 0 ? toAnthropicToolChoice(req.tool_choice, req.parallel_tool_calls) : undefined;

  const answerTokens = req.max_completion_tokens ?? req.max_tokens ?? opts.defaultMaxTokens;
  const fitted = thinkingFor(req.reasoning_effort, answerTokens, toolChoice, messages, opts.maxOutputTokens);

  const out: AnthropicRequest = { model, messages, max_tokens: fitted?.maxTokens ?? answerTokens };
  if (system.length > 0) out.system = system;
  const stop = stopSequences(req.stop);
  if (stop !== undefined) out.stop_sequences = stop;
  applySampling(out, req, fitted !== null);
  if (req.user !== undefined && req.user !== '') out.metadata = { user_id: req.user };
  if (tools.length > 0) out.tools = tools;
  if (toolChoice !== undefined) out.tool_choice = toolChoice;
  if (fitted !== null) out.thinking = fitted.thinking;
  if (req.stream === true) out.stream = true;
  return out;
}
