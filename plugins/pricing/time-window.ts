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
  return matches(minuteOfWeek(at.getTime()), parseRange(range));
}

/** The first window with a range that contains `at`, or null. Every range is checked first, so a
 * malformed window fails at any time of day, not only when the clock reaches it. */
export function findTimeWindow(windows: readonly TimeWindow[], at: Date): WindowChoice | null {
  const minute = utcWeekMinute(at.getTime());
  const index = windowAt(windows.map((window) => window.utc_ranges.map(parseRange)), minute);
  const window = windows[index];
  return window === undefined ? null : { index, window, label: windowLabel(window, index) };
}

export function windowLabel(window: TimeWindow, index: number): string {
  return window.label ?? `window ${index}`;
}

/** The UTC minute of the week (0 is Sunday 00:00) of a moment in ms since the epoch. Throws
 * RangeError when it is no valid date (as `new Date(ms)` would be invalid). */
export function utcWeekMinute(ms: number): number {
  const minute = minuteOfWeek(ms);
  if (Number.isNaN(minute)) throw new RangeError('invalid date for time-window pricing');
  return minute;
}

/** Index of the first window with a range containing `weekMinute` (from utcWeekMinute), or -1. */
export function windowAt(windows: readonly (readonly ParsedRange[])[], weekMinute: number): number {
  for (let index = 0; index < windows.length; index++) {
    for (const range of windows[index] ?? []) if (matches(weekMinute, range)) return index;
  }
  return -1;
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

const MAX_TIME_MS = 8.64e15;
const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
// 1970-01-01, day 0 of the epoch, was a Thursday.
const EPOCH_WEEKDAY = 4;

// What Date's getUTCDay, getUTCHours and getUTCMinutes give, from the number alone: the price
// stage has the start time as a number and would otherwise build a Date per call. NaN when the
// moment is outside Date's range or not a number.
function minuteOfWeek(ms: number): number {
  if (!(Math.abs(ms) <= MAX_TIME_MS)) return Number.NaN;
  const time = Math.trunc(ms); // as Date does with fractional ms
  const inDay = ((time % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  const day = (time - inDay) / MS_PER_DAY;
  const weekday = (((day + EPOCH_WEEKDAY) % 7) + 7) % 7;
  return weekday * MINUTES_PER_DAY + Math.floor(inDay / MS_PER_MINUTE);
}

function matches(weekMinute: number, range: ParsedRange): boolean {
  const day = Math.floor(weekMinute / MINUTES_PER_DAY);
  const minute = weekMinute - day * MINUTES_PER_DAY;
  if (range.start < range.end) return listed(range, day) && minute >= range.start && minute < range.end;
  // Wrapping: the evening part belongs to the listed day, the early-morning part to the day after it.
  return (minute >= range.start && listed(range, day)) || (minute < range.end && listed(range, (day + 6) % 7));
}

function listed(range: ParsedRange, day: number): boolean {
  return (range.days & (1 << day)) !== 0;
}
