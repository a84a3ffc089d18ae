// The sliding-window counter: a count per fixed minute, and the count "in the last minute"
// taken as the previous minute's count weighted by how much of it the last minute still
// covers, plus the current minute's. Two numbers per limit, whatever the traffic.

export const WINDOW_MS = 60_000;

export interface WindowCounts {
  /** The previous window's count. */
  prev: number;
  /** The current window's count. */
  curr: number;
}

/** The count in the sliding minute ending `elapsed` ms into the current window. */
export function usedAt(counts: WindowCounts, elapsed: number): number {
  return (counts.prev * (WINDOW_MS - elapsed)) / WINDOW_MS + counts.curr;
}

/** Milliseconds until the sliding count falls to `allowed` or below (0 when it is there already). */
export function msUntil(counts: WindowCounts, elapsed: number, allowed: number): number {
  const left = WINDOW_MS - elapsed;
  if (counts.curr <= allowed) {
    if (counts.prev === 0) return 0;
    return Math.max(0, Math.ceil((left * counts.prev - (allowed - counts.curr) * WINDOW_MS) / counts.prev));
  }
  // The current window's count alone is too much: wait until it is the previous one and has decayed.
  return left + Math.ceil((WINDOW_MS * (counts.curr - allowed)) / counts.curr);
}
