// The values a request carries for one label: none, one, or several (a header with a delimiter).
export function labelValues(labels: Record<string, string | string[]>, name: string): readonly string[] {
  const value = labels[name];
  if (value === undefined) return NONE;
  return typeof value === 'string' ? [value] : value;
}

const NONE: readonly string[] = Object.freeze([]);
