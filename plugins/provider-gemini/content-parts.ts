// OpenAI message content (string or typed parts) as Gemini parts. Media travels either inline
// (base64 in the body) or by reference (fileData.fileUri), which is how Gemini separates the two.
import { badRequest } from '../../core/errors.js';
import type { ContentPart } from '../../core/types/chat.js';
import { parseDataUrl } from './data-url.js';
import { audioMime, mimeFromUrl } from './mime.js';
import type { GeminiPart } from './types.js';

const DEFAULT_IMAGE_MIME = 'image/jpeg';

function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

function imagePart(url: string, param: string): GeminiPart {
  const inline = parseDataUrl(url);
  if (inline !== undefined) return { inlineData: inline };
  if (isHttpUrl(url)) return { fileData: { mimeType: mimeFromUrl(url) ?? DEFAULT_IMAGE_MIME, fileUri: url } };
  throw badRequest('image_url.url must be a base64 data: URL or an http(s) URL', param);
}

function filePart(file: { file_data?: string; file_id?: string; filename?: string }, param: string): GeminiPart {
  if (file.file_data !== undefined) {
    const inline = parseDataUrl(file.file_data);
    if (inline === undefined) throw badRequest('file.file_data must be a base64 data: URL', `${param}.file_data`);
    return { inlineData: inline };
  }
  // A file_id is only meaningful to Gemini when it is a URI it can fetch (e.g. a Files API URI).
  if (file.file_id !== undefined && isHttpUrl(file.file_id)) {
    const mimeType = mimeFromUrl(file.filename ?? '') ?? mimeFromUrl(file.file_id);
    return { fileData: mimeType === undefined ? { fileUri: file.file_id } : { mimeType, fileUri: file.file_id } };
  }
  throw badRequest('file needs file_data (a data: URL) or a file_id that is an http(s) URI', param);
}

function partFrom(part: ContentPart, param: string): GeminiPart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image_url':
      return imagePart(part.image_url.url, `${param}.image_url.url`);
    case 'input_audio':
      return { inlineData: { mimeType: audioMime(part.input_audio.format), data: part.input_audio.data } };
    case 'file':
      return filePart(part.file, `${param}.file`);
    default:
      throw badRequest(`unsupported content part type '${(part as { type: string }).type}'`, `${param}.type`);
  }
}

/** Gemini parts for `messages[index].content`; an absent or empty content gives no parts. */
export function partsFromContent(content: string | ContentPart[] | null | undefined, index: number): GeminiPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.map((part, j) => partFrom(part, `messages[${index}].content[${j}]`));
}

/** Only the text of a content, for roles Gemini gives text alone (system, tool results). */
export function textOfContent(content: string | ContentPart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
