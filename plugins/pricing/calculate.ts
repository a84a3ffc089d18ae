// The cost of one call from its provider-neutral usage and the model's catalogue pricing. Pure:
// no clock, no I/O; the caller passes the moment (`at`) that time windows are judged against.
//
// Money is exact (see money.ts): each line is rate x quantity with no rounding at all, and the
// total is their exact sum rounded once, half-up, to whole picodollars (`pico_usd`, 1e-12 USD).
//
// Rate precedence, lowest to highest: base rates, then the prompt-size tier (tier.ts), then the
// first matching time window (time-window.ts), then the service tier's rates (`serviceTier`,
// named in `service_tiers`), then batch rates when `batch` is set or the service tier is
// `batch`. Each layer only replaces the rates it names. Batch wins last because it is a property
// of the request itself and the catalogue has no per-tier or per-window batch rates to prefer.
//
// Token kinds are disjoint so nothing is charged twice: plain input excludes cached, cache-write
// and audio input tokens; cache writes are split into 5-minute and 1-hour ones; text output
// excludes reasoning and audio output tokens. A kind with no rate of its own falls back to the
// input (or output) rate and the line says so (a 1-hour write to the 5-minute write rate first).
// A kind with tokens, or web searches, and no rate at all makes the whole price unknown: never
// a silent 0.
//
// Provider-reported cost (usage.provider_cost_usd, e.g. OpenRouter) wins over the catalogue:
// the result has one `provider_reported` line, and `computed_usd` carries the catalogue estimate
// (or null) so the two can be reconciled in the audit log.
//
// Every call is priced, so what depends on the pricing alone is worked out once per pricing
// object (plan.ts), and lines are summed as whole picodollars in Numbers while they are whole
// and stay below 2^53; anything else (finer rates, fractional units, larger sums) goes through
// the BigInt Decimals, so the result is the same exact one either way.
import type { Pricing } from '../../core/types/pricing.js';
import type { Usage } from '../../core/types/usage.js';
import { add, formatDecimal, formatPicos, formatUsd, multiply, parseDecimal, PICO_SCALE, shiftDown, toPicos, ZERO, type Decimal } from './money.js';
import { chargesFor, planFor, Unpriceable, type Fault, type PricingPlan, type Rate, type TokenCharge, type UnitRate } from './plan.js';
import { pickTier } from './tier.js';
import { utcWeekMinute, windowAt } from './time-window.js';

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
  /** The moment the call was made (a Date or ms since the epoch); time windows are judged in UTC against it. */
  at: Date | number;
  batch?: boolean;
  /** The provider's service tier for the call: the one its answer reports, else the one requested. */
  serviceTier?: string | undefined;
  units?: CostUnits;
}

export interface CostLine {
  /** input, cached_input, cache_write, cache_write_1h, audio_input, output, reasoning_output,
   * audio_output, web_search, request, image_in, image_out, character_in, second_in, second_out,
   * page, provider_reported. */
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
  /** The service tier the call was priced at, when one was named. */
  service_tier?: string;
  /** Provider source only: the catalogue's own total, or null when it could not price the call. */
  computed_usd?: string | null;
  /** Inconsistencies that were corrected or rates that could not apply. */
  notes?: string[];
}

interface Bill {
  lines: CostLine[];
  /** Exact sum of the lines priced in whole picodollars, while it stays a safe integer. */
  picos: number;
  /** Exact sum of the other lines: sub-picodollar rates, fractional units, sums past 2^53. */
  rest: Decimal;
  missing: string[];
}

interface Priced {
  ok: true;
  picos: bigint;
  usd: string;
  lines: CostLine[];
  tier?: number;
  window?: string;
  service_tier?: string;
}

type Computed = Priced | { ok: false; reason: string };

const PER_MTOK_DIGITS = 6;

/** Names providers give their ordinary tier (and OpenAI's `auto` request): the base rates. */
const STANDARD_TIERS: ReadonlySet<string> = new Set(['default', 'standard', 'auto', 'on_demand', 'standard_only']);

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
        computed_usd: computed.ok ? computed.usd : null,
      },
      notes,
    );
  }
  if (!computed.ok) {
    return withNotes({ total_usd: null, pico_usd: null, source: 'unknown', unknown_reason: computed.reason, lines: [] }, notes);
  }
  const cost: Cost = { total_usd: computed.usd, pico_usd: computed.picos, source: 'computed', lines: computed.lines };
  if (computed.tier !== undefined) cost.tier = computed.tier;
  if (computed.window !== undefined) cost.window = computed.window;
  if (computed.service_tier !== undefined) cost.service_tier = computed.service_tier;
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
  const plan = planFor(pricing);
  if (typeof plan === 'string') throw new Unpriceable(plan);

  const inputTotal = tokenCount(usage.input_tokens, 'input_tokens', notes);
  const cached = tokenCount(usage.cached_input_tokens, 'cached_input_tokens', notes);
  const write = tokenCount(usage.cache_write_tokens, 'cache_write_tokens', notes);
  const write1h = tokenCount(usage.cache_write_1h_tokens, 'cache_write_1h_tokens', notes);
  const audioIn = tokenCount(usage.audio_input_tokens, 'audio_input_tokens', notes);
  const outputTotal = tokenCount(usage.output_tokens, 'output_tokens', notes);
  const reasoning = tokenCount(usage.reasoning_tokens, 'reasoning_tokens', notes);
  const audioOut = tokenCount(usage.audio_output_tokens, 'audio_output_tokens', notes);
  const webSearches = tokenCount(usage.web_search_requests, 'web_search_requests', notes);
  const write5m = remainder(write, 'cache_write_tokens', write1h, 'cache_write_1h', notes);
  const input = remainder(inputTotal, 'input_tokens', cached + write + audioIn, 'cached_input + cache_write + audio_input', notes);
  const output = remainder(outputTotal, 'output_tokens', reasoning + audioOut, 'reasoning + audio_output', notes);
  // The subsets were really sent, so the prompt is at least their sum when the counts disagree.
  const prompt = Math.max(inputTotal, cached + write + audioIn);

  raise(plan.base.fault);
  let tier = -1;
  if (plan.tiers !== null) {
    raise(plan.tiers.fault);
    tier = pickTier(plan.tiers.table, prompt);
    raise(plan.tiers.layers[tier]?.fault ?? null);
  }
  let window: string | undefined;
  let windowIndex = -1;
  if (plan.windows !== null) {
    const weekMinute = weekMinuteOf(opts.at);
    raise(plan.windows.fault);
    windowIndex = windowAt(plan.windows.ranges, weekMinute);
    raise(plan.windows.layers[windowIndex]?.fault ?? null);
    window = plan.windows.labels[windowIndex];
  }
  const serviceTier = opts.serviceTier;
  const service = serviceTier === undefined ? -1 : serviceLayer(plan, serviceTier);
  const batch = opts.batch === true || (service === -1 && serviceTier === 'batch');
  if (service === -1 && serviceTier !== undefined && !batch && !STANDARD_TIERS.has(serviceTier)) {
    notes.push(`service tier '${serviceTier}' has no rates in the pricing; standard rates used`);
  }
  if (batch) {
    raise(plan.batch.fault);
    if (plan.noBatchRates) notes.push('batch requested but the model has no batch rates; standard rates used');
  }
  raise(plan.extra.fault);

  const charges = chargesFor(plan, tier, windowIndex, service, batch);
  const bill: Bill = { lines: [], picos: 0, rest: ZERO, missing: [] };
  chargeTokens(bill, charges[0], input);
  chargeTokens(bill, charges[1], cached);
  chargeTokens(bill, charges[2], write5m);
  chargeTokens(bill, charges[3], write1h);
  chargeTokens(bill, charges[4], audioIn);
  chargeTokens(bill, charges[5], output);
  chargeTokens(bill, charges[6], reasoning);
  chargeTokens(bill, charges[7], audioOut);
  if (webSearches > 0) {
    raise(plan.webSearch.fault);
    if (plan.webSearch.rate === undefined) bill.missing.push('web_search');
    else chargeUnit(bill, 'web_search', webSearches, plan.webSearch.rate);
  }
  // output_image_per_mtok needs a count of image output tokens, which Usage does not carry;
  // providers fold those tokens into output_tokens, so they are charged at the output rate.
  if (plan.outputImageRate && outputTotal > 0) {
    notes.push('output_image_per_mtok not applied: usage has no image output token count');
  }
  if (bill.missing.length > 0) throw new Unpriceable(`no rate for ${bill.missing.join(', ')}`);

  const unmeasured = chargeUnits(bill, plan.perRequest, opts.units === undefined ? plan.ratedUnits : plan.units, opts.units, notes);
  // A per-unit model (TTS, transcription, image generation) whose quantity was never measured
  // has not cost nothing; we just do not know what it cost.
  if (bill.lines.length === 0 && unmeasured.length > 0) {
    throw new Unpriceable(`per-unit usage not measured: ${unmeasured.join(', ')}`);
  }

  const result: Priced =
    bill.rest.coef === 0n
      ? { ok: true, picos: BigInt(bill.picos), usd: formatPicos(bill.picos), lines: bill.lines }
      : totalOf(bill);
  if (tier !== -1) result.tier = tier;
  if (window !== undefined) result.window = window;
  if (serviceTier !== undefined) result.service_tier = serviceTier;
  return result;
}

/** The index of the service tier's own rates, or -1 when the pricing has none for it. */
function serviceLayer(plan: PricingPlan, name: string): number {
  if (plan.serviceTiers === null) return -1;
  raise(plan.serviceTiers.fault);
  const index = plan.serviceTiers.names.indexOf(name);
  raise(plan.serviceTiers.layers[index]?.fault ?? null);
  return index;
}

function totalOf(bill: Bill): Priced {
  const picos = toPicos(add(bill.rest, { coef: BigInt(bill.picos), scale: PICO_SCALE }));
  return { ok: true, picos, usd: formatUsd(picos), lines: bill.lines };
}

function weekMinuteOf(at: Date | number): number {
  try {
    return utcWeekMinute(typeof at === 'number' ? at : at.getTime());
  } catch (error) {
    throw error instanceof RangeError ? new Unpriceable(`invalid time_windows: ${error.message}`) : error;
  }
}

/** Throws what the plan found wrong at this point of the rules, if anything. */
function raise(fault: Fault): void {
  if (fault !== null) throw fault.thrown;
}

// Given the value, not the field name: reading usage[field] by a variable key is a slow keyed
// load, seven times a call.
function tokenCount(value: unknown, field: keyof Usage & (`${string}_tokens` | `${string}_requests`), notes: string[]): number {
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

function chargeTokens(bill: Bill, charge: TokenCharge, tokens: number): void {
  if (tokens === 0) return;
  const rate = charge.rate;
  if (rate === undefined) {
    bill.missing.push(charge.item);
    return;
  }
  const picos = tokens * rate.picos;
  if (bill.picos + picos <= Number.MAX_SAFE_INTEGER) addWholeLine(bill, charge.item, tokens, rate, picos, charge.note);
  else addLine(bill, charge.item, tokens, rate, shiftDown(multiply(rate.exact, parseDecimal(tokens)), PER_MTOK_DIGITS), charge.note);
}

/** Charges every per-unit rate; returns the rates that could not apply because their quantity was absent. */
function chargeUnits(bill: Bill, perRequest: { fault: Fault; rate: Rate | undefined }, rates: readonly UnitRate[], units: CostUnits | undefined, notes: string[]): string[] {
  raise(perRequest.fault);
  if (perRequest.rate !== undefined) {
    const requests = unitCount(units, 'requests') ?? 1;
    if (requests > 0) chargeUnit(bill, 'request', requests, perRequest.rate);
  }
  const unmeasured: string[] = [];
  for (const { item, field, unit, fault, rate } of rates) {
    raise(fault);
    const quantity = unitCount(units, unit);
    if (rate === undefined) {
      // Most providers bill images and audio as tokens, which the token lines already cover.
      if (quantity !== undefined && quantity > 0) notes.push(`units.${unit} ${quantity} has no ${field} rate; assumed priced as tokens`);
    } else if (quantity === undefined) {
      unmeasured.push(`${field} (units.${unit})`);
      notes.push(`${field} not applied: units.${unit} not measured`);
    } else if (quantity > 0) {
      chargeUnit(bill, item, quantity, rate);
    }
  }
  return unmeasured;
}

function chargeUnit(bill: Bill, item: string, quantity: number, rate: Rate): void {
  // A fractional quantity is priced as the decimal it prints as, which only the exact path does.
  const picos = Number.isSafeInteger(quantity) ? quantity * rate.picos : Number.NaN;
  if (bill.picos + picos <= Number.MAX_SAFE_INTEGER) addWholeLine(bill, item, quantity, rate, picos);
  else addLine(bill, item, quantity, rate, multiply(rate.exact, parseDecimal(quantity)));
}

function unitCount(units: CostUnits | undefined, unit: keyof CostUnits): number | undefined {
  const value: unknown = units?.[unit];
  if (value == null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Unpriceable(`invalid units.${unit}: ${String(value)}`);
  }
  return value;
}

// Both paths give the same text for the same amount: formatPicos is formatDecimal on whole picodollars.
function addWholeLine(bill: Bill, item: string, quantity: number, rate: Rate, picos: number, note?: string): void {
  const line: CostLine = { item, quantity, rate_usd: rate.text, amount_usd: formatPicos(picos) };
  if (note !== undefined) line.note = note;
  bill.lines.push(line);
  bill.picos += picos;
}

function addLine(bill: Bill, item: string, quantity: number, rate: Rate, amount: Decimal, note?: string): void {
  const line: CostLine = { item, quantity, rate_usd: rate.text, amount_usd: formatDecimal(amount) };
  if (note !== undefined) line.note = note;
  bill.lines.push(line);
  bill.rest = add(bill.rest, amount);
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
