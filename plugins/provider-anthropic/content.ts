// OpenAI message content (string or parts) -> Anthropic content blocks.
// Anthropic rejects empty text blocks, so empty strings are dropped rather than sent.
import { badRequest } from '../../core/errors.js';
import type { ContentPart, FilePart, ImagePart } from '../../core/types/chat.js';
import { isHttpUrl, parseBase64DataUrl } from './data-url.js';
import type {
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicImageMediaType,
  AnthropicRequestBlock,
  AnthropicTextBlock,
} from './types.js';

type Content = string | ContentPart[] | null | undefined;

const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function isImageMediaType(type: string): type is AnthropicImageMediaType {
  return IMAGE_MEDIA_TYPES.has(type);
}

function textBlocks(text: string): AnthropicTextBlock[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

export function imageBlock(part: ImagePart, param: string): AnthropicImageBlock {
  const url = part.image_url.url;
  if (isHttpUrl(url)) return { type: 'image', source: { type: 'url', url } };
  const payload = parseBase64DataUrl(url);
  if (payload === null) {
    throw badRequest('image_url.url must be an http(s) URL or a base64 data URL', `${param}.image_url.url`);
  }
  if (!isImageMediaType(payload.mediaType)) {
    throw badRequest(
      `image type '${payload.mediaType}' is not supported by this provider (jpeg, png, gif, webp)`,
      `${param}.image_url.url`,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: payload.mediaType, data: payload.data } };
}

/** Anthropic reads PDFs as document blocks; an OpenAI file id means nothing to it. */
function documentBlock(part: FilePart, param: string): AnthropicDocumentBlock {
  const payload = part.file.file_data === undefined ? null : parseBase64DataUrl(part.file.file_data);
  if (payload === null || payload.mediaType !== 'application/pdf') {
    throw badRequest('file parts must carry file_data as a base64 data URL of a PDF for this provider', `${param}.file`);
  }
  const block: AnthropicDocumentBlock = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: payload.data } };
  if (part.file.filename !== undefined) block.title = part.file.filename;
  return block;
}

function partBlocks(part: ContentPart, param: string): AnthropicRequestBlock[] {
  switch (part.type) {
    case 'text': return textBlocks(part.text);
    case 'image_url': return [imageBlock(part, param)];
    case 'file': return [documentBlock(part, param)];
    case 'input_audio': throw badRequest('audio input is not supported by this provider', param);
    default:
      // Unvalidated input can carry part types the shared types do not list.
      throw badRequest(`content part type '${String((part as { type?: unknown }).type)}' is not supported by this provider`, param);
  }
}

/** Blocks of a user message: text, images and PDFs. */
export function userBlocks(content: Content, param: string): AnthropicRequestBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return textBlocks(content);
  return content.flatMap((part, j) => partBlocks(part, `${param}[${j}]`));
}

/** Blocks inside a tool_result, which Anthropic limits to text and images. */
export function toolResultBlocks(content: Content, param: string): Array<AnthropicTextBlock | AnthropicImageBlock> {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return textBlocks(content);
  return content.flatMap((part, j): Array<AnthropicTextBlock | AnthropicImageBlock> => {
    if (part.type === 'text') return textBlocks(part.text);
    if (part.type === 'image_url') return [imageBlock(part, `${param}[${j}]`)];
    throw badRequest(`tool results accept only text and image parts for this provider`, `${param}[${j}]`);
  });
}

/** Blocks of a message that may only hold text (system, developer, assistant). */
export function textOnlyBlocks(content: Content, param: string): AnthropicTextBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return textBlocks(content);
  return content.flatMap((part, j) => {
    if (part.type !== 'text') throw badRequest(`only text parts are allowed here, got '${part.type}'`, `${param}[${j}]`);
    return textBlocks(part.text);
  });
}
