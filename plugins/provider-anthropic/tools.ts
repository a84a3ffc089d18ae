// OpenAI function tools and tool_choice -> Anthropic tools and tool_choice.
import type { FunctionTool, ToolChoice } from '../../core/types/chat.js';
import type { AnthropicTool, AnthropicToolChoice } from './types.js';

/** Anthropic requires input_schema; a tool without parameters takes an empty object. */
const EMPTY_OBJECT_SCHEMA: Readonly<Record<string, unknown>> = { type: 'object', properties: {} };

export function toAnthropicTool(tool: FunctionTool): AnthropicTool {
  const out: AnthropicTool = { name: tool.function.name, input_schema: tool.function.parameters ?? { ...EMPTY_OBJECT_SCHEMA } };
  if (tool.function.description !== undefined) out.description = tool.function.description;
  return out;
}

function baseChoice(choice: ToolChoice | undefined): AnthropicToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.function.name };
}

/**
 * OpenAI puts `parallel_tool_calls` at the top level; Anthropic puts its inverse on the
 * tool_choice, so `false` needs a tool_choice even when the client sent none ('auto' is
 * Anthropic's default). `none` has no such flag: no tool is called at all.
 */
export function toAnthropicToolChoice(choice: ToolChoice | undefined, parallelToolCalls: boolean | undefined): AnthropicToolChoice | undefined {
  const base = baseChoice(choice);
  if (parallelToolCalls !== false) return base;
  const withDefault = base ?? { type: 'auto' };
  if (withDefault.type === 'none') return withDefault;
  return { ...withDefault, disable_parallel_tool_use: true };
}

/** Whether the choice makes the model call a tool, which Anthropic forbids with thinking. */
export function forcesToolUse(choice: AnthropicToolChoice | undefined): boolean {
  return choice !== undefined && (choice.type === 'any' || choice.type === 'tool');
}
