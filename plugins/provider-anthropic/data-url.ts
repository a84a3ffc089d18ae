// OpenAI carries inline files as data URLs; Anthropic wants the media type and the base64
// payload as separate fields.

export interface Base64Payload {
  mediaType: string;
  data: string;
}

const BASE64_DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,(.*)$/s;

/** The parts of a `data:<type>[;params];base64,<data>` URL, or null for anything else. */
export function parseBase64DataUrl(url: string): Base64Payload | null {
  const match = BASE64_DATA_URL.exec(url);
  if (match === null) return null;
  const [, mediaType, , data] = match;
  if (mediaType === undefined || data === undefined || data === '') return null;
  return { mediaType: mediaType.toLowerCase(), data };
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
