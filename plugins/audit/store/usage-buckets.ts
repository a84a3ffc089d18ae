// The time buckets usage is split into: UTC hours or days, or the whole window as one bucket.
// Both stores' SQL puts a timestamp x in the bucket starting at x - (x - origin) % size, so one
// query serves either; the origin is at or before the window's start, so x - origin is never
// negative (SQL's % truncates towards zero).
import type { UsageBucket } from './store.js';
import { HOUR_MS } from './usage-rollup.js';

export const DAY_MS = 86_400_000;

// Epoch milliseconds have no leap seconds: every UTC day is exactly DAY_MS long.
export const BUCKET_MS: Readonly<Record<UsageBucket, number>> = { hour: HOUR_MS, day: DAY_MS };

export interface Bucketing {
  /** A bucket's start, ms since the epoch. */
  origin: number;
  /** Every bucket's length, ms; a multiple of an hour or the whole window, so no rollup hour straddles two buckets. */
  size: number;
}

export function bucketing(bucket: UsageBucket | null, from: number, to: number): Bucketing {
  if (bucket === null) return { origin: from, size: to - from };
  const size = BUCKET_MS[bucket];
  return { origin: Math.floor(from / size) * size, size };
}

/** The start of every bucket [from, to) touches, oldest first. */
export function bucketStarts(bucket: UsageBucket | null, from: number, to: number): number[] {
  const { origin, size } = bucketing(bucket, from, to);
  return Array.from({ length: bucketCount(bucket, from, to) }, (_, i) => origin + i * size);
}

/** How many buckets [from, to) touches, without listing them. */
export function bucketCount(bucket: UsageBucket | null, from: number, to: number): number {
  const { origin, size } = bucketing(bucket, from, to);
  return Math.ceil((to - origin) / size);
}
