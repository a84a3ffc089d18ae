// OpenAI tools and tool_choice as Gemini functionDeclarations and functionCallingConfig.
import type { FunctionTool, ToolChoice } from '../../core/types/chat.js';
import type { GeminiFunctionDeclaration, GeminiTool, GeminiToolConfig } from './types.js';

function declarationFrom(tool: FunctionTool): GeminiFunctionDeclaration {
  const { name, description, parameters } = tool.function;
  const declaration: GeminiFunctionDeclaration = { name };
  if (description !== undefined) declaration.description = description;
  // OpenAI parameters are JSON Schema; `parametersJsonSchema` takes that as is, whereas
  // `parameters` is an OpenAPI 3.0 subset that rejects keywords such as additionalProperties.
  if (parameters !== undefined) declaration.parametersJsonSchema = parameters;
  return declaration;
}

/** All functions in one Gemini tool, the shape the API documents; undefined when there are none. */
export function toGeminiTools(tools: FunctionTool[] | undefined): GeminiTool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return [{ functionDeclarations: tools.map(declarationFrom) }];
}

/** tool_choice as functionCallingConfig: auto -> AUTO, none -> NONE, required -> ANY, a named function -> ANY limited to it. */
export function toGeminiToolConfig(choice: ToolChoice | undefined): GeminiToolConfig | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}
