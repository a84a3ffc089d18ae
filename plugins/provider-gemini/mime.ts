// Gemini's fileData wants a MIME type next to the URI, and an OpenAI image_url carries none,
// so it is guessed from the path's extension.

const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mov: 'video/mov',
  webm: 'video/webm',
};

/** The MIME type implied by the URL's last path segment, or undefined when the extension is unknown. */
export function mimeFromUrl(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? url;
  }
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()];
}

/** input_audio.format ("wav", "mp3") as a MIME type. */
export function audioMime(format: string): string {
  return BY_EXTENSION[format.toLowerCase()] ?? `audio/${format.toLowerCase()}`;
}
