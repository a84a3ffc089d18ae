// Which time window (e.g. DeepSeek's off-peak discount) a moment falls in. Everything is UTC,
// so a price never depends on the gateway host's time zone or on daylight-saving changes.
//
// A range matches when the UTC day is one of `days` (absent: every day) and the UTC clock is
// in [start, end). A range whose end is at or before its start wraps past midnight, and `days`
// names the day it STARTS: {days: ['fri'], start: '22:00', end: '02:00'} covers Friday 22:00
// to Saturday 02:00, not Friday 00:00-02:00. start == end therefore means 24 hours from start.
// "24:00" is accepted as an end (end of day). Times are whole minutes; seconds only move a
// moment within its minute, so 00:29:59 is still before an end of 00:30.
import type { TimeWindow, UtcRange } from '../../core/types/pricing.js';

export interface WindowChoice {
  index: number;
  window: TimeWindow;
  /** The window's label, or "window <index>" when it has none. */
  label: string;
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const CLOCK = /^(\d{2}):(\d{2})$/;
const MINUTES_PER_DAY = 24 * 60;

/** "HH:MM" to minutes after midnight; 00:00..24:00. Throws RangeError on anything else. */
export function parseClock(text: string): number {
  const match = CLOCK.exec(text);
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  if (match === null || minutes > 59 || hours * 60 + minutes > MINUTES_PER_DAY) {
    throw new RangeError(`invalid UTC time ${JSON.stringify(text)} (expected "HH:MM")`);
  }
  return hours * 60 + minutes;
}

export function inUtcRange(at: Date, range: UtcRange): boolean {
  return matches(at, parseRange(range));
}

/** The first window with a range that contains `at`, or null. Every range is checked first, so a
 * malformed window fails at any time of day, not only when the clock reaches it. */
export function findTimeWindow(windows: readonly TimeWindow[], at: Date): WindowChoice | null {
  if (Number.isNaN(at.getTime())) throw new RangeError('invalid date for time-window pricing');
  const parsed = windows.map((window) => window.utc_ranges.map(parseRange));
  for (const [index, window] of windows.entries()) {
    if (parsed[index]?.some((range) => matches(at, range))) {
      return { index, window, label: window.label ?? `window ${index}` };
    }
  }
  return null;
}

export interface ParsedRange {
  /** Bit d set: UTC day d (0 = Sunday) is listed. */
  days: number;
  start: number;
  end: number;
}

/** Throws RangeError on a malformed range; index.ts can call it at boot to reject bad config. */
export function parseRange(range: UtcRange): ParsedRange {
  let days = 0b1111111;
  if (range.days !== undefined) {
    days = 0;
    for (const name of range.days) {
      const day = (DAY_NAMES as readonly string[]).indexOf(name);
      if (day < 0) throw new RangeError(`invalid day ${JSON.stringify(name)} (expected one of ${DAY_NAMES.join(', ')})`);
      days |= 1 << day;
    }
  }
  const start = parseClock(range.start);
  if (start === MINUTES_PER_DAY) throw new RangeError('a range cannot start at "24:00"; use "00:00"');
  return { days, start, end: parseClock(range.end) };
}

function matches(at: Date, range: ParsedRange): boolean {
  const day = at.getUTCDay();
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  const listed = (d: number): boolean => (range.days & (1 << d)) !== 0;
  if (range.start < range.end) return listed(day) && minute >= range.start && minute < range.end;
  // Wrapping: the evening part belongs to the listed day, the early-morning part to the day after it.
  return (minute >= range.start && listed(day)) || (minute < range.end && listed((day + 6) % 7));
}
