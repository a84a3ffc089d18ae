// The cost of one call from its provider-neutral usage and the model's catalogue pricing. Pure:
// no clock, no I/O; the caller passes the moment (`at`) that time windows are judged against.
//
// Money is exact (see money.ts): each line is rate x quantity with no rounding at all, and the
// total is their exact sum rounded once, half-up, to whole picodollars (`pico_usd`, 1e-12 USD).
//
// Rate precedence, lowest to highest: base rates, then the prompt-size tier (tier.ts), then the
// first matching time window (time-window.ts), then batch rates when `batch` is set. Each layer
// only replaces the rates it names. Batch wins last because it is a property of the request
// itself and the catalogue has no per-tier or per-window batch rates to prefer.
//
// Token kinds are disjoint so nothing is charged twice: plain input excludes cached, cache-write
// and audio input tokens; text output excludes reasoning and audio output tokens. A kind with
// no rate of its own falls back to the input (or output) rate and the line says so. A kind with
// tokens and no rate at all makes the whole price unknown: never a silent 0.
//
// Provider-reported cost (usage.provider_cost_usd, e.g. OpenRouter) wins over the catalogue:
// the result has one `provider_reported` line, and `computed_usd` carries the catalogue estimate
// (or null) so the two can be reconciled in the audit log.
import type { Pricing, PricingTier, TimeWindow } from '../../core/types/pricing.js';
import type { Usage } from '../../core/types/usage.js';
import {
  add,
  formatDecimal,
  formatUsd,
  multiply,
  parseDecimal,
  parseRate,
  shiftDown,
  toPicos,
  ZERO,
  type Decimal,
} from './money.js';
import { findTimeWindow } from './time-window.js';
import { selectTier } from './tier.js';

export interface CostUnits {
  images_in?: number;
  images_out?: number;
  /** Defaults to 1 when the model has a per_request rate. */
  requests?: number;
  characters_in?: number;
  seconds_in?: number;
  seconds_out?: number;
  pages?: number;
}

export interface CostOptions {
  /** The moment the call was made; time windows are judged in UTC against it. */
  at: Date;
  batch?: boolean;
  units?: CostUnits;
}

export interface CostLine {
  /** input, cached_input, cache_write, audio_input, output, reasoning_output, audio_output,
   * request, image_in, image_out, character_in, second_in, second_out, page, provider_reported. */
  item: string;
  quantity: number;
  /** USD per million tokens for token items, USD per unit otherwise. */
  rate_usd: string;
  /** Exact, unrounded. */
  amount_usd: string;
  /** Why this rate, when it is a fallback (e.g. cached tokens at the input rate). */
  note?: string;
}

export interface Cost {
  /** Exact decimal USD at picodollar resolution; null when the price is unknown. */
  total_usd: string | null;
  /** The same total as a whole number of picodollars (1e-12 USD); null when unknown. */
  pico_usd: bigint | null;
  source: 'computed' | 'provider' | 'unknown';
  unknown_reason?: string;
  lines: CostLine[];
  /** Index into pricing.tiers of the tier used. */
  tier?: number;
  /** Label of the time window used. */
  window?: string;
  /** Provider source only: the catalogue's own total, or null when it could not price the call. */
  computed_usd?: string | null;
  /** Inconsistencies that were corrected or rates that could not apply. */
  notes?: string[];
}

/** Thrown inside this module only; becomes `source: 'unknown'` with the message as reason. */
class Unpriceable extends Error {}

interface TokenRates {
  input?: Decimal;
  output?: Decimal;
  cached?: Decimal;
  write?: Decimal;
}

interface Bill {
  lines: CostLine[];
  total: Decimal;
  missing: string[];
}

type Computed =
  | { ok: true; picos: bigint; lines: CostLine[]; tier?: number; window?: string }
  | { ok: false; reason: string };

const TOKEN_RATE_FIELDS = ['input_per_mtok', 'output_per_mtok', 'cached_input_per_mtok', 'cache_write_per_mtok'] as const;

const UNIT_RATES = [
  { item: 'image_in', field: 'input_per_image', unit: 'images_in' },
  { item: 'image_out', field: 'per_image', unit: 'images_out' },
  { item: 'character_in', field: 'per_character_input', unit: 'characters_in' },
  { item: 'second_in', field: 'per_second_input', unit: 'seconds_in' },
  { item: 'second_out', field: 'per_second_output', unit: 'seconds_out' },
  { item: 'page', field: 'per_page', unit: 'pages' },
] as const satisfies readonly { item: string; field: keyof Pricing; unit: keyof CostUnits }[];

const ANY_RATE_FIELDS = [
  ...TOKEN_RATE_FIELDS,
  'reasoning_output_per_mtok',
  'audio_input_per_mtok',
  'audio_output_per_mtok',
  'output_image_per_mtok',
  'batch_input_per_mtok',
  'batch_output_per_mtok',
  'per_request',
  ...UNIT_RATES.map((u) => u.field),
] as const satisfies readonly (keyof Pricing)[];

const PER_MTOK_DIGITS = 6;

export function calculateCost(usage: Usage, pricing: Pricing | null | undefined, opts: CostOptions): Cost {
  const notes: string[] = [];
  const computed = compute(usage, pricing, opts, notes);
  const reported = providerCost(usage, notes);
  if (reported !== null) {
    const picos = toPicos(reported);
    const exact = formatDecimal(reported);
    return withNotes(
      {
        total_usd: formatUsd(picos),
        pico_usd: picos,
        source: 'provider',
        lines: [{ item: 'provider_reported', quantity: 1, rate_usd: exact, amount_usd: exact }],
        computed_usd: computed.ok ? formatUsd(computed.picos) : null,
      },
      notes,
    );
  }
  if (!computed.ok) {
    return withNotes({ total_usd: null, pico_usd: null, source: 'unknown', unknown_reason: computed.reason, lines: [] }, notes);
  }
  const cost: Cost = { total_usd: formatUsd(computed.picos), pico_usd: computed.picos, source: 'computed', lines: computed.lines };
  if (computed.tier !== undefined) cost.tier = computed.tier;
  if (computed.window !== undefined) cost.window = computed.window;
  return withNotes(cost, notes);
}

function compute(usage: Usage, pricing: Pricing | null | undefined, opts: CostOptions, notes: string[]): Computed {
  try {
    return computeOrThrow(usage, pricing, opts, notes);
  } catch (error) {
    if (error instanceof Unpriceable) return { ok: false, reason: error.message };
    throw error;
  }
}

function computeOrThrow(usage: Usage, pricing: Pricing | null | undefined, opts: CostOptions, notes: string[]): Computed {
  if (pricing == null) throw new Unpriceable('no pricing for model');
  if (pricing.currency != null && String(pricing.currency).toUpperCase() !== 'USD') {
    throw new Unpriceable(`pricing currency is ${pricing.currency}, not USD (no FX conversion)`);
  }
  if (!ANY_RATE_FIELDS.some((f) => pricing[f] != null) && !pricing.tiers?.length && !pricing.time_windows?.length) {
    throw new Unpriceable('pricing has no rates');
  }

  const inputTotal = tokenCount(usage, 'input_tokens', notes);
  const cached = tokenCount(usage, 'cached_input_tokens', notes);
  const write = tokenCount(usage, 'cache_write_tokens', notes);
  const audioIn = tokenCount(usage, 'audio_input_tokens', notes);
  const outputTotal = tokenCount(usage, 'output_tokens', notes);
  const reasoning = tokenCount(usage, 'reasoning_tokens', notes);
  const audioOut = tokenCount(usage, 'audio_output_tokens', notes);
  const input = remainder(inputTotal, 'input_tokens', cached + write + audioIn, 'cached_input + cache_write + audio_input', notes);
  const output = remainder(outputTotal, 'output_tokens', reasoning + audioOut, 'reasoning + audio_output', notes);
  // The subsets were really sent, so the prompt is at least their sum when the counts disagree.
  const prompt = Math.max(inputTotal, cached + write + audioIn);

  const rates = baseRates(pricing);
  const tier = pricing.tiers?.length ? guard('tiers', () => selectTier(pricing.tiers ?? [], prompt)) : null;
  if (tier !== null) overlay(rates, tier.tier, `tiers[${tier.index}].`);
  const window = pricing.time_windows?.length ? guard('time_windows', () => findTimeWindow(pricing.time_windows ?? [], opts.at)) : null;
  if (window !== null) overlay(rates, windowRates(window.window), `time_windows[${window.index}].pricing.`);
  if (opts.batch === true) applyBatch(rates, pricing, notes);

  const bill: Bill = { lines: [], total: ZERO, missing: [] };
  chargeTokens(bill, 'input', input, rates.input);
  chargeTokens(bill, 'cached_input', cached, ...fallback(rates.cached, 'cached_input', rates.input, 'input'));
  chargeTokens(bill, 'cache_write', write, ...fallback(rates.write, 'cache_write', rates.input, 'input'));
  const audioInRate = rate(pricing.audio_input_per_mtok, 'audio_input_per_mtok');
  chargeTokens(bill, 'audio_input', audioIn, ...fallback(audioInRate, 'audio_input', rates.input, 'input'));
  chargeTokens(bill, 'output', output, rates.output);
  const reasoningRate = rate(pricing.reasoning_output_per_mtok, 'reasoning_output_per_mtok');
  chargeTokens(bill, 'reasoning_output', reasoning, ...fallback(reasoningRate, 'reasoning_output', rates.output, 'output'));
  const audioOutRate = rate(pricing.audio_output_per_mtok, 'audio_output_per_mtok');
  chargeTokens(bill, 'audio_output', audioOut, ...fallback(audioOutRate, 'audio_output', rates.output, 'output'));
  // output_image_per_mtok needs a count of image output tokens, which Usage does not carry;
  // providers fold those tokens into output_tokens, so they are charged at the output rate.
  if (pricing.output_image_per_mtok != null && outputTotal > 0) {
    notes.push('output_image_per_mtok not applied: usage has no image output token count');
  }
  if (bill.missing.length > 0) throw new Unpriceable(`no rate for ${bill.missing.join(', ')}`);

  const unmeasured = chargeUnits(bill, pricing, opts.units, notes);
  // A per-unit model (TTS, transcription, image generation) whose quantity was never measured
  // has not cost nothing; we just do not know what it cost.
  if (bill.lines.length === 0 && unmeasured.length > 0) {
    throw new Unpriceable(`per-unit usage not measured: ${unmeasured.join(', ')}`);
  }

  const result: Computed = { ok: true, picos: toPicos(bill.total), lines: bill.lines };
  if (tier !== null) result.tier = tier.index;
  if (window !== null) result.window = window.label;
  return result;
}

function tokenCount(usage: Usage, field: keyof Usage & `${string}_tokens`, notes: string[]): number {
  const value: unknown = usage[field];
  // Translators omit counts a provider does not report; absent means none of that kind.
  if (value == null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new Unpriceable(`invalid usage ${field}: ${String(value)}`);
  }
  if (value < 0) {
    notes.push(`usage ${field} was ${value}; counted as 0`);
    return 0;
  }
  return value;
}

/** total minus its priced subsets, clamped at 0 (the subsets are still charged in full). */
function remainder(total: number, totalName: string, parts: number, partsName: string, notes: string[]): number {
  if (parts <= total) return total - parts;
  notes.push(`${totalName} ${total} is less than ${partsName} ${parts}; the remainder is counted as 0`);
  return 0;
}

function rate(value: number | undefined, field: string): Decimal | undefined {
  if (value == null) return undefined;
  try {
    return parseRate(value);
  } catch (error) {
    throw new Unpriceable(`invalid ${field}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function guard<T>(what: string, pick: () => T): T {
  try {
    return pick();
  } catch (error) {
    if (error instanceof RangeError) throw new Unpriceable(`invalid ${what}: ${error.message}`);
    throw error;
  }
}

function baseRates(pricing: Pricing): TokenRates {
  const rates: TokenRates = {};
  overlay(rates, pricing, '');
  return rates;
}

/** Replace the token rates that `source` names; leave the others. `path` prefixes field names in errors. */
function overlay(rates: TokenRates, source: PricingTier | TimeWindow['pricing'], path: string): void {
  rates.input = rate(source.input_per_mtok, `${path}input_per_mtok`) ?? rates.input;
  rates.output = rate(source.output_per_mtok, `${path}output_per_mtok`) ?? rates.output;
  rates.cached = rate(source.cached_input_per_mtok, `${path}cached_input_per_mtok`) ?? rates.cached;
  rates.write = rate(source.cache_write_per_mtok, `${path}cache_write_per_mtok`) ?? rates.write;
}

function windowRates(window: TimeWindow): TimeWindow['pricing'] {
  // Catalogues from JSON may omit the object; a window without rates changes nothing.
  const pricing: TimeWindow['pricing'] | undefined = window.pricing;
  return pricing ?? {};
}

function applyBatch(rates: TokenRates, pricing: Pricing, notes: string[]): void {
  const input = rate(pricing.batch_input_per_mtok, 'batch_input_per_mtok');
  const output = rate(pricing.batch_output_per_mtok, 'batch_output_per_mtok');
  if (input === undefined && output === undefined) {
    notes.push('batch requested but the model has no batch rates; standard rates used');
  }
  rates.input = input ?? rates.input;
  rates.output = output ?? rates.output;
}

function fallback(
  own: Decimal | undefined,
  item: string,
  other: Decimal | undefined,
  otherItem: string,
): [Decimal | undefined, string | undefined] {
  if (own !== undefined || other === undefined) return [own, undefined];
  return [other, `no ${item} rate; charged at the ${otherItem} rate`];
}

function chargeTokens(bill: Bill, item: string, tokens: number, perMtok: Decimal | undefined, note?: string): void {
  if (tokens === 0) return;
  if (perMtok === undefined) {
    bill.missing.push(item);
    return;
  }
  addLine(bill, item, tokens, perMtok, shiftDown(multiply(perMtok, parseDecimal(tokens)), PER_MTOK_DIGITS), note);
}

/** Charges every per-unit rate; returns the rates that could not apply because their quantity was absent. */
function chargeUnits(bill: Bill, pricing: Pricing, units: CostUnits | undefined, notes: string[]): string[] {
  const perRequest = rate(pricing.per_request, 'per_request');
  if (perRequest !== undefined) {
    const requests = unitCount(units, 'requests') ?? 1;
    if (requests > 0) addLine(bill, 'request', requests, perRequest, multiply(perRequest, parseDecimal(requests)));
  }
  const unmeasured: string[] = [];
  for (const { item, field, unit } of UNIT_RATES) {
    const perUnit = rate(pricing[field], field);
    const quantity = unitCount(units, unit);
    if (perUnit === undefined) {
      // Most providers bill images and audio as tokens, which the token lines already cover.
      if (quantity !== undefined && quantity > 0) notes.push(`units.${unit} ${quantity} has no ${field} rate; assumed priced as tokens`);
    } else if (quantity === undefined) {
      unmeasured.push(`${field} (units.${unit})`);
      notes.push(`${field} not applied: units.${unit} not measured`);
    } else if (quantity > 0) {
      addLine(bill, item, quantity, perUnit, multiply(perUnit, parseDecimal(quantity)));
    }
  }
  return unmeasured;
}

function unitCount(units: CostUnits | undefined, unit: keyof CostUnits): number | undefined {
  const value: unknown = units?.[unit];
  if (value == null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Unpriceable(`invalid units.${unit}: ${String(value)}`);
  }
  return value;
}

function addLine(bill: Bill, item: string, quantity: number, unitRate: Decimal, amount: Decimal, note?: string): void {
  const line: CostLine = { item, quantity, rate_usd: formatDecimal(unitRate), amount_usd: formatDecimal(amount) };
  if (note !== undefined) line.note = note;
  bill.lines.push(line);
  bill.total = add(bill.total, amount);
}

/** The provider's own figure, or null when absent or unusable (then the catalogue price stands). */
function providerCost(usage: Usage, notes: string[]): Decimal | null {
  const value: unknown = usage.provider_cost_usd;
  if (value == null) return null;
  try {
    if (typeof value !== 'number' && typeof value !== 'string') throw new RangeError('not a number');
    const cost = parseDecimal(value);
    if (cost.coef < 0n) throw new RangeError('negative');
    return cost;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    notes.push(`provider_cost_usd ${String(value)} ignored (${why}); catalogue price used`);
    return null;
  }
}

function withNotes(cost: Cost, notes: string[]): Cost {
  if (notes.length > 0) cost.notes = notes;
  return cost;
}
