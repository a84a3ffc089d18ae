// Responses tools and tool_choice in their chat shapes. Chat providers run no tools of their
// own: only function tools (run by the client) translate; hosted ones (web_search,
// file_search, code_interpreter, mcp, ...) are refused, since dropping them would answer a
// different question.
import { badRequest } from '../../core/errors.js';
import type { FunctionTool, ToolChoice } from '../../core/types/chat.js';
import type { ResponsesRequest } from '../../core/types/responses.js';
import { requiredString } from './required-string.js';

export function toChatTools(tools: ResponsesRequest['tools']): FunctionTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw badRequest("'tools' must be an array", 'tools');
  const out: FunctionTool[] = [];
  for (let i = 0; i < tools.length; i++) out.push(toChatTool(tools[i] as unknown, `tools[${i}]`));
  return out;
}

function toChatTool(value: unknown, param: string): FunctionTool {
  if (typeof value !== 'object' || value === null) throw badRequest(`'${param}' must be a tool object`, param);
  const tool = value as Record<string, unknown>;
  if (tool['type'] !== 'function') {
    throw badRequest(
      `'${String(tool['type'])}' tools run on OpenAI's servers; this model is served through Chat Completions, which can only call function tools`,
      `${param}.type`,
      'unsupported_value',
    );
  }
  const fn: FunctionTool['function'] = { name: requiredString(tool['name'], `${param}.name`) };
  const { description, parameters, strict } = tool;
  if (typeof description === 'string') fn.description = description;
  if (typeof parameters === 'object' && parameters !== null) fn.parameters = parameters as Record<string, unknown>;
  // Responses treats a missing `strict` as true, chat as false; it is passed only when given,
  // because strict schemas are OpenAI's and other providers reject or ignore them.
  if (typeof strict === 'boolean') fn.strict = strict;
  return { type: 'function', function: fn };
}

/** tool_choice without tools says nothing when it is auto or none; anything else names a tool that is not there. */
export function toChatToolChoice(choice: ResponsesRequest['tool_choice'], hasTools: boolean): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none') return hasTools ? choice : undefined;
  const chat = choice === 'required' ? choice : namedFunction(choice);
  if (!hasTools) throw badRequest("'tool_choice' asks for a tool call but no function tools are given", 'tool_choice');
  return chat;
}

function namedFunction(choice: NonNullable<ResponsesRequest['tool_choice']>): ToolChoice {
  if (typeof choice === 'object' && choice.type === 'function') {
    return { type: 'function', function: { name: requiredString(choice.name, 'tool_choice.name') } };
  }
  const what = typeof choice === 'object' ? `'${String(choice.type)}'` : JSON.stringify(choice);
  // allowed_tools, hosted tool types, mcp and custom tools have no chat counterpart.
  throw badRequest(`tool_choice ${what} is not supported when the model is served through Chat Completions`, 'tool_choice', 'unsupported_value');
}
