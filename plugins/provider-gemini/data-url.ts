export interface DataUrl { mimeType: string; data: string }

/** Splits a base64 `data:` URL; undefined when the string is not one (Gemini's inlineData takes base64 only). */
export function parseDataUrl(url: string): DataUrl | undefined {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (match === null) return undefined;
  const [, mimeType, data] = match;
  if (mimeType === undefined || data === undefined) return undefined;
  return { mimeType, data };
}
