// OpenAI messages as Gemini contents plus systemInstruction. Gemini has two turn roles (user,
// model), keeps system text out of the turns, and wants turns to alternate, so consecutive
// messages that land on the same role are merged into one turn.
import { badRequest } from '../../core/errors.js';
import type { ChatMessage } from '../../core/types/chat.js';
import { partsFromContent, textOfContent } from './content-parts.js';
import { functionCallPart, functionResponsePart } from './tool-messages.js';
import type { GeminiContent, GeminiPart, GeminiRole } from './types.js';

export interface GeminiConversation {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
}

function appendTurn(contents: GeminiContent[], role: GeminiRole, parts: GeminiPart[]): void {
  // A turn with no parts is a 400 from Gemini (e.g. an assistant message with null content).
  if (parts.length === 0) return;
  const last = contents[contents.length - 1];
  if (last !== undefined && last.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function assistantParts(message: ChatMessage, index: number, toolNames: Map<string, string>): GeminiPart[] {
  // reasoning_content is not sent back: Gemini takes no thought text as input, only signatures.
  const parts = partsFromContent(message.content, index);
  (message.tool_calls ?? []).forEach((call, j) => {
    toolNames.set(call.id, call.function.name);
    parts.push(functionCallPart(call, `messages[${index}].tool_calls[${j}]`));
  });
  return parts;
}

// Gemini's functionResponse needs the function's name, which an OpenAI tool message lacks:
// it is found through the id of the assistant tool call it answers.
function toolResultPart(message: ChatMessage, index: number, toolNames: Map<string, string>): GeminiPart {
  const name = message.role === 'function' ? message.name : toolNames.get(message.tool_call_id ?? '');
  if (name === undefined) {
    const param = message.role === 'function' ? `messages[${index}].name` : `messages[${index}].tool_call_id`;
    throw badRequest('tool message does not answer any earlier assistant tool call', param);
  }
  return functionResponsePart(name, textOfContent(message.content));
}

export function toGeminiConversation(messages: ChatMessage[]): GeminiConversation {
  const contents: GeminiContent[] = [];
  const systemParts: GeminiPart[] = [];
  // Later calls win: ids can repeat across turns when a provider numbers them per response.
  const toolNames = new Map<string, string>();
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        systemParts.push(...partsFromContent(message.content, index));
        break;
      case 'user':
        appendTurn(contents, 'user', partsFromContent(message.content, index));
        break;
      case 'assistant':
        appendTurn(contents, 'model', assistantParts(message, index, toolNames));
        break;
      case 'tool':
      case 'function':
        appendTurn(contents, 'user', [toolResultPart(message, index, toolNames)]);
        break;
      default:
        throw badRequest(`unsupported message role '${String(message.role)}'`, `messages[${index}].role`);
    }
  });
  if (contents.length === 0) throw badRequest('messages must contain at least one user or assistant message', 'messages');
  return systemParts.length === 0 ? { contents } : { contents, systemInstruction: { parts: systemParts } };
}
