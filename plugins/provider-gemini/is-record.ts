/** A plain JSON object (not an array, not null): the only shape Gemini accepts for args and responses. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
