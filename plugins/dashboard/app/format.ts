// How numbers and times read on screen. Costs stay the API's exact decimal strings; only the
// charts turn them into floats.
const integer = new Intl.NumberFormat('en-US');

export const formatInt = (n: number): string => integer.format(n);

/** A dollar amount as the API gives it (an exact decimal string, or a budget's number), never rounded; an unknown one (null) reads "unknown", never free. */
export const formatUsd = (usd: string | number | null): string => (usd === null ? 'unknown' : `$${usd}`);

/** An ISO time as `2026-11-26 19:52:03 UTC`. */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** A `datetime-local` input's value (read as UTC) as ISO 8601, or '' when empty. */
export function inputToIso(value: string): string {
  if (value === '') return '';
  return value.length === 16 ? `${value}:00Z` : `${value}Z`;
}

/** ISO 8601 as a `datetime-local` value, in UTC, to the minute. */
export const isoToInput = (iso: string): string => iso.slice(0, 16);

export const prettyJson = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
