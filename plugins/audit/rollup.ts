// Hourly usage rollups, aggregated in memory so that many entries cost one upsert per distinct
// (hour, dimension, value), not one per entry. Every entry counts once in `all`, `key`, `model`
// and `provider`; once per distinct value of each label it carries in `label:<name>`; and once
// in `labelled:<name>`. Stores persist the cells; no SQL here.
import { isUnpriced } from './entry.js';
import type { AuditSummary } from './entry.js';

/** What a rollup reads of an entry (a whole entry or a store's record). */
export type RollupInput = Pick<AuditSummary, 'ts' | 'model' | 'resolved_model' | 'provider' | 'key_id' | 'labels' | 'input_tokens' | 'output_tokens' | 'total_tokens' | 'cost_pico'>;

export const HOUR_MS = 3_600_000;

/** Totals of every entry, whatever its labels: what a label grouping's "no label" row is derived from. */
export const ALL_DIM = 'all';

/**
 * Entries carrying label <name> (any value), counted once each: `all` minus this is the "no
 * label" row of a label grouping, exact even when an entry has several values for one label.
 */
export function labelledDim(name: string): string {
  return `labelled:${name}`;
}

/** Stored in place of a missing model or provider (primary keys cannot hold null). */
export const NO_VALUE = '';

export interface RollupCell {
  /** Start of the UTC hour, ms since the epoch. */
  bucketHour: number;
  dim: string;
  value: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costPico: bigint;
  unpricedRequests: number;
}

export function hourOf(ts: number): number {
  return Math.floor(ts / HOUR_MS) * HOUR_MS;
}

/** The value an entry is grouped under for `model`: what it resolved to, else what was asked. */
export function modelValue(e: Pick<AuditSummary, 'resolved_model' | 'model'>): string {
  return e.resolved_model ?? e.model ?? NO_VALUE;
}

/**
 * Calls `each` once per distinct value of a label that counts (an empty value counts as no
 * label); returns whether there was one. Raw sums use it too, so both agree exactly.
 */
export function forEachLabelValue(value: string | readonly string[], each: (value: string) => void): boolean {
  if (typeof value === 'string') {
    if (value === NO_VALUE) return false;
    each(value);
    return true;
  }
  let counted = false;
  for (let i = 0; i < value.length; i++) {
    const v = value[i]!;
    if (v === NO_VALUE || value.indexOf(v) !== i) continue;
    each(v);
    counted = true;
  }
  return counted;
}

/** Sums of one or more entries that share their hour, key, model, provider and labels. */
export interface RollupSums {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costPico: bigint;
  unpricedRequests: number;
}

/**
 * A cell being summed. Costs add up as a number while that stays exact (any one entry's is a
 * safe integer) and spill into a bigint beyond: BigInt arithmetic per entry and cell would cost
 * more than the rest of the sum.
 */
class Cell implements RollupCell {
  readonly bucketHour: number;
  readonly dim: string;
  readonly value: string;
  requests = 0;
  inputTokens = 0;
  outputTokens = 0;
  totalTokens = 0;
  unpricedRequests = 0;
  #cost = 0;
  #costBeyond = 0n;

  constructor(hour: number, dim: string, value: string) {
    this.bucketHour = hour;
    this.dim = dim;
    this.value = value;
  }

  get costPico(): bigint {
    return this.#costBeyond + BigInt(this.#cost);
  }

  addCost(pico: number): void {
    const sum = this.#cost + pico;
    if (Number.isSafeInteger(sum)) this.#cost = sum;
    else {
      this.#costBeyond += BigInt(this.#cost) + BigInt(pico);
      this.#cost = 0;
    }
  }

  addBigCost(pico: bigint): void {
    this.#costBeyond += pico;
  }
}

/** One hour's cells, by dimension then value; the four fixed dimensions kept at hand. */
class HourCells {
  readonly start: number;
  readonly all: Map<string, Cell> = new Map();
  readonly key: Map<string, Cell> = new Map();
  readonly model: Map<string, Cell> = new Map();
  readonly provider: Map<string, Cell> = new Map();
  readonly byDim = new Map<string, Map<string, Cell>>([
    [ALL_DIM, this.all],
    ['key', this.key],
    ['model', this.model],
    ['provider', this.provider],
  ]);

  constructor(start: number) {
    this.start = start;
  }

  dim(dim: string): Map<string, Cell> {
    let cells = this.byDim.get(dim);
    if (cells === undefined) this.byDim.set(dim, (cells = new Map()));
    return cells;
  }
}

export class RollupBatch {
  readonly #hours = new Map<number, HourCells>();

  add(e: RollupInput): void {
    const hour = this.#hour(hourOf(e.ts));
    const cost = e.cost_pico ?? 0;
    const unpriced = isUnpriced(e) ? 1 : 0;
    const input = e.input_tokens;
    const output = e.output_tokens;
    const total = e.total_tokens;
    addOne(cellOf(hour.all, hour, ALL_DIM, NO_VALUE), input, output, total, cost, unpriced);
    addOne(cellOf(hour.key, hour, 'key', e.key_id ?? NO_VALUE), input, output, total, cost, unpriced);
    addOne(cellOf(hour.model, hour, 'model', modelValue(e)), input, output, total, cost, unpriced);
    addOne(cellOf(hour.provider, hour, 'provider', e.provider ?? NO_VALUE), input, output, total, cost, unpriced);
    const labels = e.labels;
    for (const name in labels) {
      const dims = labelDims(name);
      const cells = hour.dim(dims.values);
      const counted = forEachLabelValue(labels[name]!, (v) => addOne(cellOf(cells, hour, dims.values, v), input, output, total, cost, unpriced));
      if (counted) addOne(cellOf(hour.dim(dims.labelled), hour, dims.labelled, NO_VALUE), input, output, total, cost, unpriced);
    }
  }

  /** Entries already summed by their dimensions (a store's GROUP BY). */
  addGroup(hourStart: number, key: string | null, model: string, provider: string | null, labels: AuditSummary['labels'], sums: RollupSums): void {
    const hour = this.#hour(hourStart);
    const add = (cell: Cell): void => {
      cell.requests += sums.requests;
      cell.inputTokens += sums.inputTokens;
      cell.outputTokens += sums.outputTokens;
      cell.totalTokens += sums.totalTokens;
      cell.addBigCost(sums.costPico);
      cell.unpricedRequests += sums.unpricedRequests;
    };
    add(cellOf(hour.all, hour, ALL_DIM, NO_VALUE));
    add(cellOf(hour.key, hour, 'key', key ?? NO_VALUE));
    add(cellOf(hour.model, hour, 'model', model));
    add(cellOf(hour.provider, hour, 'provider', provider ?? NO_VALUE));
    for (const name in labels) {
      const dims = labelDims(name);
      const cells = hour.dim(dims.values);
      if (forEachLabelValue(labels[name]!, (v) => add(cellOf(cells, hour, dims.values, v)))) add(cellOf(hour.dim(dims.labelled), hour, dims.labelled, NO_VALUE));
    }
  }

  /** Every cell, hour by hour. */
  *cells(): Generator<RollupCell> {
    for (const hour of this.#hours.values()) for (const cells of hour.byDim.values()) yield* cells.values();
  }

  /** The cells of one dimension in hours [from, to). */
  *cellsOf(dim: string, from: number, to: number): Generator<RollupCell> {
    for (const [start, hour] of this.#hours) {
      if (start < from || start >= to) continue;
      const cells = hour.byDim.get(dim);
      if (cells !== undefined) yield* cells.values();
    }
  }

  has(dim: string, hour: number, value: string): boolean {
    return this.#hours.get(hour)?.byDim.get(dim)?.has(value) ?? false;
  }

  get empty(): boolean {
    return this.#hours.size === 0;
  }

  #hour(start: number): HourCells {
    let hour = this.#hours.get(start);
    if (hour === undefined) this.#hours.set(start, (hour = new HourCells(start)));
    return hour;
  }
}

// The dimension names of a label, made once per name rather than once per entry.
const LABEL_DIMS = new Map<string, { values: string; labelled: string }>();
const MAX_LABEL_DIMS = 1000;

function labelDims(name: string): { values: string; labelled: string } {
  let dims = LABEL_DIMS.get(name);
  if (dims === undefined) {
    dims = { values: `label:${name}`, labelled: labelledDim(name) };
    if (LABEL_DIMS.size < MAX_LABEL_DIMS) LABEL_DIMS.set(name, dims);
  }
  return dims;
}

function cellOf(cells: Map<string, Cell>, hour: HourCells, dim: string, value: string): Cell {
  let cell = cells.get(value);
  if (cell === undefined) cells.set(value, (cell = new Cell(hour.start, dim, value)));
  return cell;
}

function addOne(cell: Cell, input: number, output: number, total: number, cost: number, unpriced: number): void {
  cell.requests += 1;
  cell.inputTokens += input;
  cell.outputTokens += output;
  cell.totalTokens += total;
  cell.addCost(cost);
  cell.unpricedRequests += unpriced;
}
