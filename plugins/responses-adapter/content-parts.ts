// Responses content parts as chat message content. Text-only content becomes one string:
// several chat servers take no part arrays (at all, or for system and assistant turns), and
// the parts of one message are read as one text anyway. Images, files and audio exist in
// chat only in user turns; elsewhere they are refused rather than dropped.
import { badRequest } from '../../core/errors.js';
import type { ContentPart, FilePart, ImagePart, InputAudioPart } from '../../core/types/chat.js';
import type { ResponsesContentPart } from '../../core/types/responses.js';
import { requiredString } from './required-string.js';

/** Whose content it is: only user turns may carry more than text. */
export type ContentOwner = 'system' | 'user' | 'assistant' | 'tool';

const MEDIA_OWNER_REASON: Record<Exclude<ContentOwner, 'user'>, string> = {
  system: 'system and developer messages',
  assistant: 'assistant messages',
  tool: 'function call outputs',
};

export function toChatContent(content: unknown, owner: ContentOwner, param: string): string | ContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw badRequest(`'${param}' must be a string or an array of content parts`, param);
  const parts: ContentPart[] = [];
  let textOnly = true;
  for (let j = 0; j < content.length; j++) {
    const part = toChatPart(content[j] as unknown, owner, `${param}[${j}]`);
    if (part.type !== 'text') textOnly = false;
    parts.push(part);
  }
  return textOnly ? parts.map((p) => (p as { text: string }).text).join('\n') : parts;
}

type MediaPart = (part: ResponsesContentPart, param: string) => ContentPart;

const MEDIA_PARTS: ReadonlyMap<unknown, MediaPart> = new Map<unknown, MediaPart>([
  ['input_image', imagePart],
  ['input_file', filePart],
  ['input_audio', audioPart],
]);

function toChatPart(value: unknown, owner: ContentOwner, param: string): ContentPart {
  if (typeof value !== 'object' || value === null) throw badRequest(`'${param}' must be a content part object`, param);
  const part = value as ResponsesContentPart;
  if (part.type === 'input_text' || part.type === 'output_text') return { type: 'text', text: requiredString(part.text, `${param}.text`) };
  // An earlier refusal is what the model said; chat history keeps it as text.
  if (part.type === 'refusal') return { type: 'text', text: requiredString(part['refusal'], `${param}.refusal`) };
  const media = MEDIA_PARTS.get(part.type);
  if (media === undefined) {
    throw badRequest(`content part type '${String(part.type)}' is not supported when the model is served through Chat Completions`, `${param}.type`, 'unsupported_value');
  }
  if (owner !== 'user') {
    throw badRequest(`'${part.type}' parts are not allowed in ${MEDIA_OWNER_REASON[owner]} when the model is served through Chat Completions`, `${param}.type`, 'unsupported_value');
  }
  return media(part, param);
}

/** Chat knows auto, low and high; `original` (full resolution) is nearest to high. */
function chatDetail(detail: unknown): 'auto' | 'low' | 'high' | undefined {
  if (detail === 'auto' || detail === 'low' || detail === 'high') return detail;
  return detail === 'original' ? 'high' : undefined;
}

function imagePart(part: ResponsesContentPart, param: string): ImagePart {
  const source = part.image_url;
  const url = typeof source === 'string' ? source : typeof source?.url === 'string' ? source.url : '';
  if (url === '') {
    if (typeof part.file_id === 'string') {
      throw badRequest('image file ids refer to OpenAI file storage, which chat providers cannot read; send the image as image_url (https or data URL)', `${param}.file_id`, 'unsupported_value');
    }
    throw badRequest(`'${param}.image_url' is required`, `${param}.image_url`);
  }
  const detail = chatDetail(typeof source === 'object' && source.detail !== undefined ? source.detail : part.detail);
  return { type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } };
}

function filePart(part: ResponsesContentPart, param: string): FilePart {
  const file: FilePart['file'] = {};
  if (typeof part.file_data === 'string') file.file_data = part.file_data;
  if (typeof part.file_id === 'string') file.file_id = part.file_id;
  if (typeof part.filename === 'string') file.filename = part.filename;
  if (file.file_data === undefined && file.file_id === undefined) {
    if (typeof part.file_url === 'string') {
      throw badRequest('Chat Completions cannot fetch files by URL; send the file as file_data', `${param}.file_url`, 'unsupported_value');
    }
    throw badRequest(`'${param}' needs file_data or file_id`, `${param}.file_data`);
  }
  return { type: 'file', file };
}

function audioPart(part: ResponsesContentPart, param: string): InputAudioPart {
  const audio = part.input_audio;
  if (typeof audio?.data !== 'string' || typeof audio.format !== 'string') {
    throw badRequest(`'${param}.input_audio' needs data and format`, `${param}.input_audio`);
  }
  return { type: 'input_audio', input_audio: { data: audio.data, format: audio.format } };
}
