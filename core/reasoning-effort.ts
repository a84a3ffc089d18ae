// Reasoning levels of the client API (`reasoning_effort`, `reasoning.effort`), from least to
// most. A provider or model that lacks a level gets the nearest one it has: the closest lower
// level, else the closest higher one (docs/api.md, "Client API").

export const EFFORT_LEVELS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

const RANK: ReadonlyMap<string, number> = new Map(EFFORT_LEVELS.map((level, i) => [level, i]));

/** The supported level nearest to `wanted`; `wanted` itself when it is supported or unknown here. */
export function nearestEffort(wanted: string, supported: readonly string[]): string {
  const rank = RANK.get(wanted);
  if (rank === undefined || supported.includes(wanted) || supported.length === 0) return wanted;
  let below: string | null = null;
  let above: string | null = null;
  for (const level of supported) {
    const r = RANK.get(level);
    if (r === undefined) continue;
    if (r < rank && (below === null || r > RANK.get(below)!)) below = level;
    if (r > rank && (above === null || r < RANK.get(above)!)) above = level;
  }
  return below ?? above ?? wanted;
}
