/** Float32 values as base64 of their little-endian bytes: OpenAI's `encoding_format: base64`. */
export function float32Base64(values: number[]): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((value, i) => view.setFloat32(i * 4, value, true));
  return Buffer.from(view.buffer).toString('base64');
}
