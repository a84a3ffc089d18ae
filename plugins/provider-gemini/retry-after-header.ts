// A Retry-After header in seconds: either delay-seconds or an HTTP date (RFC 9110 §10.2.3).

/** Whole seconds to wait, rounded up; null when absent or unreadable. */
export function retryAfterHeaderSeconds(value: string | string[] | undefined, now: number = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return null;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds) : null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
