// Reading a number out of a provider's usage object, which is JSON the gateway does not control:
// anything that is not a finite, non-negative number counts as absent rather than as zero.

export function usageNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** A whole token count, or null. */
export function tokenCount(v: unknown): number | null {
  const n = usageNumber(v);
  return n === null ? null : Math.floor(n);
}
