// A Responses request as the Chat Completions request that asks a chat-only provider the same
// thing. Every Responses field is mapped, echoed back only, left out for a stated reason
// (docs/responses-adapter.md), or refused with a 400 naming it. Fields not known here are
// forwarded as they are: they are most likely the provider's own extensions (top_k, min_p).
import { badRequest } from '../../core/errors.js';
import type { ChatRequest, ReasoningEffort, ResponseFormat } from '../../core/types/chat.js';
import type { ResponsesRequest } from '../../core/types/responses.js';
import { toChatMessages } from './input-items.js';
import { requiredString } from './required-string.js';
import { toChatToolChoice, toChatTools } from './tools.js';

const CHAT_SERVED = 'this model is served through Chat Completions, where nothing is stored';

/** Fields that need state only OpenAI keeps: answering without it would ignore the request. */
const NEEDS_STORED_STATE: ReadonlyArray<readonly [field: string, refusal: string]> = [
  ['previous_response_id', `'previous_response_id' continues a stored response, but ${CHAT_SERVED}: send the whole conversation in 'input'`],
  ['conversation', `'conversation' continues a stored conversation, but ${CHAT_SERVED}: send the whole conversation in 'input'`],
  ['prompt', `'prompt' refers to a stored prompt template, but ${CHAT_SERVED}: send the instructions and input themselves`],
];

/** Same name and meaning in chat. */
const SAME_IN_CHAT = ['stream', 'temperature', 'top_p', 'user', 'service_tier', 'safety_identifier', 'prompt_cache_key'] as const;

/** Every field handled here one way or another; the rest is forwarded. */
const KNOWN: ReadonlySet<string> = new Set<string>([
  ...SAME_IN_CHAT,
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'text', 'reasoning',
  // Echoed in the response only: they describe the response, not the generation.
  'metadata', 'store', 'truncation',
  // OpenAI-side features with no chat counterpart that do not change the answer.
  'include', 'stream_options', 'max_tool_calls', 'prompt_cache_retention', 'prompt_cache_options', 'moderation', 'context_management',
  // Refused when set (see below).
  'background', 'top_logprobs', 'previous_response_id', 'conversation', 'prompt',
]);

const EFFORTS: ReadonlySet<string> = new Set<ReasoningEffort>(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

export function toChatRequest(req: ResponsesRequest): ChatRequest {
  refuseUntranslatable(req);
  const chat: ChatRequest = { model: req.model, messages: toChatMessages(req.input, req.instructions) };
  const fields: Record<string, unknown> = chat;
  for (const key of SAME_IN_CHAT) if (req[key] !== undefined && req[key] !== null) fields[key] = req[key];
  const tools = toChatTools(req.tools);
  // Chat rejects an empty tools list, and parallel_tool_calls without tools.
  const hasTools = tools !== undefined && tools.length > 0;
  if (hasTools) chat.tools = tools;
  if (hasTools && typeof req.parallel_tool_calls === 'boolean') chat.parallel_tool_calls = req.parallel_tool_calls;
  const toolChoice = toChatToolChoice(req.tool_choice, hasTools);
  if (toolChoice !== undefined) chat.tool_choice = toolChoice;
  if (typeof req.max_output_tokens === 'number') chat.max_completion_tokens = req.max_output_tokens;
  const effort = reasoningEffort(req.reasoning);
  if (effort !== undefined) chat.reasoning_effort = effort;
  addTextOptions(chat, req.text);
  for (const key in req) if (!KNOWN.has(key)) fields[key] = req[key];
  return chat;
}

function refuseUntranslatable(req: ResponsesRequest): void {
  for (const [field, refusal] of NEEDS_STORED_STATE) {
    const value = req[field];
    if (value !== undefined && value !== null && value !== '') throw badRequest(refusal, field, 'unsupported_parameter');
  }
  if (req['background'] === true) {
    throw badRequest(`background responses are polled from stored state, but ${CHAT_SERVED}: leave 'background' unset`, 'background', 'unsupported_parameter');
  }
  const topLogprobs = req['top_logprobs'];
  if (typeof topLogprobs === 'number' && topLogprobs > 0) {
    throw badRequest('log probabilities are not translated from Chat Completions; leave top_logprobs unset or 0', 'top_logprobs', 'unsupported_parameter');
  }
}

function reasoningEffort(reasoning: ResponsesRequest['reasoning']): ReasoningEffort | undefined {
  const effort = reasoning?.effort;
  if (effort === undefined || effort === null) return undefined;
  if (!EFFORTS.has(effort)) throw badRequest(`'reasoning.effort' must be one of ${[...EFFORTS].map((e) => JSON.stringify(e)).join(', ')}`, 'reasoning.effort');
  return effort as ReasoningEffort;
}

function addTextOptions(chat: ChatRequest, text: ResponsesRequest['text']): void {
  if (text === undefined || text === null) return;
  const format = responseFormat(text.format);
  if (format !== undefined) chat.response_format = format;
  const verbosity = (text as { verbosity?: unknown }).verbosity;
  if (typeof verbosity === 'string') chat['verbosity'] = verbosity;
}

function responseFormat(format: NonNullable<ResponsesRequest['text']>['format']): ResponseFormat | undefined {
  if (format === undefined || format === null || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type !== 'json_schema') {
    throw badRequest(`text.format type '${String(format.type)}' is not supported when the model is served through Chat Completions`, 'text.format.type', 'unsupported_value');
  }
  const { schema, strict, description } = format as Record<string, unknown>;
  const jsonSchema: Extract<ResponseFormat, { type: 'json_schema' }>['json_schema'] = { name: requiredString(format.name, 'text.format.name') };
  if (typeof schema === 'object' && schema !== null) jsonSchema.schema = schema as Record<string, unknown>;
  if (typeof strict === 'boolean') jsonSchema.strict = strict;
  if (typeof description === 'string') jsonSchema.description = description;
  return { type: 'json_schema', json_schema: jsonSchema };
}
