// A model's pricing compiled once into what every call needs: each rate parsed, formatted and
// converted to whole picodollars per token (or unit), tier bounds sorted, time windows parsed,
// and the token rates of each tier x window x service tier x batch combination resolved on first use. The
// price stage runs on every call, mostly with a handful of catalogue pricing objects, so this
// work is done once per object rather than once per call.
//
// Catalogue pricing objects are only read (see plugins/router/catalog.ts), so a plan is kept
// for as long as its object lives; a caller that changed an object after pricing with it would
// keep getting the plan of the old values.
//
// Invalid parts do not fail the plan. Each becomes a Fault, thrown by calculate.ts at the point
// where its rules reach that part, so a call reports the first error in rule order, with the
// notes made before it, and a bad rate in a tier the call does not use still lets it be priced.
import type { Pricing, PricingTier, TimeWindow, TokenRates as RateFields } from '../../core/types/pricing.js';
import type { CostUnits } from './calculate.js';
import { formatDecimal, parseRate, PICO_SCALE, type Decimal } from './money.js';
import { parseRange, windowLabel, type ParsedRange } from './time-window.js';
import { tierTable, type TierTable } from './tier.js';

/** Thrown inside the pricing plugin only; becomes `source: 'unknown'` with the message as reason. */
export class Unpriceable extends Error {}

export interface Rate {
  readonly exact: Decimal;
  /** rate_usd of a line. */
  readonly text: string;
  /** Whole picodollars per token (per unit for per-unit rates); NaN when the rate has finer
   * digits or would pass 2^53, so that products with it fail the safe-integer check. */
  readonly picos: number;
}

/** What a call that reaches this point throws; null when nothing is wrong. */
export type Fault = { readonly thrown: unknown } | null;

interface TokenRates {
  input?: Rate | undefined;
  output?: Rate | undefined;
  cached?: Rate | undefined;
  write?: Rate | undefined;
  write1h?: Rate | undefined;
}

/** Token rates that one layer of pricing (base, a tier, a window) sets. */
interface Layer {
  readonly fault: Fault;
  readonly rates: TokenRates;
}

/** How one kind of token is charged under a given tier, window and batch flag. */
export interface TokenCharge {
  readonly item: string;
  /** Undefined: no rate applies, so tokens of this kind make the price unknown. */
  readonly rate: Rate | undefined;
  /** Why the rate is another kind's. */
  readonly note: string | undefined;
}

/** input, cached_input, cache_write, cache_write_1h, audio_input, output, reasoning_output, audio_output. */
export type TokenCharges = readonly [TokenCharge, TokenCharge, TokenCharge, TokenCharge, TokenCharge, TokenCharge, TokenCharge, TokenCharge];

export interface UnitRate {
  readonly item: string;
  readonly field: keyof Pricing;
  readonly unit: keyof CostUnits;
  readonly fault: Fault;
  readonly rate: Rate | undefined;
}

export interface PricingPlan {
  readonly base: Layer;
  readonly tiers: { readonly fault: Fault; readonly table: TierTable; readonly layers: readonly Layer[] } | null;
  readonly windows: {
    readonly fault: Fault;
    readonly ranges: readonly (readonly ParsedRange[])[];
    readonly labels: readonly string[];
    readonly layers: readonly Layer[];
  } | null;
  /** Layers by service tier name, in the order of `names`. */
  readonly serviceTiers: { readonly fault: Fault; readonly names: readonly string[]; readonly layers: readonly Layer[] } | null;
  readonly batch: Layer;
  readonly noBatchRates: boolean;
  /** The audio and reasoning rates, which only the base pricing sets. */
  readonly extra: { readonly fault: Fault; readonly audioInput: Rate | undefined; readonly reasoning: Rate | undefined; readonly audioOutput: Rate | undefined };
  readonly outputImageRate: boolean;
  readonly perRequest: { readonly fault: Fault; readonly rate: Rate | undefined };
  readonly webSearch: { readonly fault: Fault; readonly rate: Rate | undefined };
  readonly units: readonly UnitRate[];
  /** The units with a rate or a fault: without measured units, the others change nothing. */
  readonly ratedUnits: readonly UnitRate[];
  /** TokenCharges by combination (see chargesFor), filled on first use. */
  readonly charges: (TokenCharges | undefined)[];
}

const TOKEN_RATE_FIELDS = ['input_per_mtok', 'output_per_mtok', 'cached_input_per_mtok', 'cache_write_per_mtok', 'cache_write_1h_per_mtok'] as const;

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
  'per_web_search',
  ...UNIT_RATES.map((u) => u.field),
] as const satisfies readonly (keyof Pricing)[];

const PER_MTOK_DIGITS = 6;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const plans = new WeakMap<Pricing, PricingPlan | string>();

/** The plan of a pricing object, or why no call can be priced with it. */
export function planFor(pricing: Pricing): PricingPlan | string {
  // Unchecked config (model_overrides) can put any JSON value there; only objects key a WeakMap.
  if (typeof pricing !== 'object') return compile(pricing);
  let plan = plans.get(pricing);
  if (plan === undefined) {
    plan = compile(pricing);
    plans.set(pricing, plan);
  }
  return plan;
}

/** The token charges for a tier, window and service tier index (-1: none) and batch flag. Only
 * for a combination whose faults the caller has already checked: their rates are read here. */
export function chargesFor(plan: PricingPlan, tier: number, window: number, service: number, batch: boolean): TokenCharges {
  const windowCount = plan.windows === null ? 0 : plan.windows.layers.length;
  const serviceCount = plan.serviceTiers === null ? 0 : plan.serviceTiers.layers.length;
  const key = (((tier + 1) * (windowCount + 1) + window + 1) * (serviceCount + 1) + service + 1) * 2 + (batch ? 1 : 0);
  return (plan.charges[key] ??= resolveCharges(plan, tier, window, service, batch));
}

function compile(pricing: Pricing): PricingPlan | string {
  if (pricing.currency != null && String(pricing.currency).toUpperCase() !== 'USD') {
    return `pricing currency is ${pricing.currency}, not USD (no FX conversion)`;
  }
  if (!ANY_RATE_FIELDS.some((f) => pricing[f] != null) && !pricing.tiers?.length && !pricing.time_windows?.length) {
    return 'pricing has no rates';
  }
  const units = UNIT_RATES.map(({ item, field, unit }) =>
    attempt(() => ({ item, field, unit, rate: unitRate(pricing[field], field) }), { item, field, unit, rate: undefined }),
  );
  const batch = layer(() => ({
    input: tokenRate(pricing.batch_input_per_mtok, 'batch_input_per_mtok'),
    output: tokenRate(pricing.batch_output_per_mtok, 'batch_output_per_mtok'),
  }));
  return {
    base: layer(() => tokenRates(pricing, '')),
    tiers: pricing.tiers?.length ? compileTiers(pricing.tiers) : null,
    windows: pricing.time_windows?.length ? compileWindows(pricing.time_windows) : null,
    serviceTiers: pricing.service_tiers == null ? null : compileServiceTiers(pricing.service_tiers),
    batch,
    noBatchRates: batch.rates.input === undefined && batch.rates.output === undefined,
    // In the order calculate.ts once parsed them, so the first bad one is the one reported.
    extra: attempt(
      () => ({
        audioInput: tokenRate(pricing.audio_input_per_mtok, 'audio_input_per_mtok'),
        reasoning: tokenRate(pricing.reasoning_output_per_mtok, 'reasoning_output_per_mtok'),
        audioOutput: tokenRate(pricing.audio_output_per_mtok, 'audio_output_per_mtok'),
      }),
      { audioInput: undefined, reasoning: undefined, audioOutput: undefined },
    ),
    outputImageRate: pricing.output_image_per_mtok != null,
    perRequest: attempt(() => ({ rate: unitRate(pricing.per_request, 'per_request') }), { rate: undefined }),
    webSearch: attempt(() => ({ rate: unitRate(pricing.per_web_search, 'per_web_search') }), { rate: undefined }),
    units,
    ratedUnits: units.filter((u) => u.rate !== undefined || u.fault !== null),
    charges: [],
  };
}

// Everything inside attempt: even a `tiers` or `time_windows` that is no array becomes a fault.
function compileTiers(tiers: readonly PricingTier[]): NonNullable<PricingPlan['tiers']> {
  return attempt(
    () => ({ table: guard('tiers', () => tierTable(tiers)), layers: tiers.map((tier, index) => layer(() => tokenRates(tier, `tiers[${index}].`))) }),
    { table: { ascending: [], fallback: -1 }, layers: [] },
  );
}

function compileWindows(windows: readonly TimeWindow[]): NonNullable<PricingPlan['windows']> {
  return attempt(
    () => ({
      ranges: guard('time_windows', () => windows.map((window) => window.utc_ranges.map(parseRange))),
      labels: windows.map(windowLabel),
      layers: windows.map((window, index) => layer(() => tokenRates(windowRates(window), `time_windows[${index}].pricing.`))),
    }),
    { ranges: [], labels: [], layers: [] },
  );
}

function compileServiceTiers(tiers: Record<string, RateFields>): NonNullable<PricingPlan['serviceTiers']> {
  return attempt(
    () => {
      if (typeof tiers !== 'object' || Array.isArray(tiers)) throw new Unpriceable('invalid service_tiers: not an object of rates by tier name');
      const names = Object.keys(tiers);
      return { names, layers: names.map((name) => layer(() => tokenRates(tiers[name] ?? {}, `service_tiers.${name}.`))) };
    },
    { names: [], layers: [] },
  );
}

function layer(read: () => TokenRates): Layer {
  return attempt(() => ({ rates: read() }), { rates: {} });
}

/** `read()` with no fault, or `instead` with the fault that `read` threw. */
function attempt<T extends object>(read: () => T, instead: T): T & { readonly fault: Fault } {
  try {
    return { fault: null, ...read() };
  } catch (error) {
    return { fault: { thrown: error }, ...instead };
  }
}

function tokenRates(source: RateFields, path: string): TokenRates {
  return {
    input: tokenRate(source.input_per_mtok, `${path}input_per_mtok`),
    output: tokenRate(source.output_per_mtok, `${path}output_per_mtok`),
    cached: tokenRate(source.cached_input_per_mtok, `${path}cached_input_per_mtok`),
    write: tokenRate(source.cache_write_per_mtok, `${path}cache_write_per_mtok`),
    write1h: tokenRate(source.cache_write_1h_per_mtok, `${path}cache_write_1h_per_mtok`),
  };
}

function windowRates(window: TimeWindow): TimeWindow['pricing'] {
  // Catalogues from JSON may omit the object; a window without rates changes nothing.
  const pricing: TimeWindow['pricing'] | undefined = window.pricing;
  return pricing ?? {};
}

/** Converts a RangeError from tier or window parsing into the reason a call reports. */
function guard<T>(what: string, pick: () => T): T {
  try {
    return pick();
  } catch (error) {
    if (error instanceof RangeError) throw new Unpriceable(`invalid ${what}: ${error.message}`);
    throw error;
  }
}

function tokenRate(value: number | undefined, field: string): Rate | undefined {
  return compileRate(value, field, PICO_SCALE - PER_MTOK_DIGITS);
}

function unitRate(value: number | undefined, field: string): Rate | undefined {
  return compileRate(value, field, PICO_SCALE);
}

/** `digits`: how many decimal places of the rate still name whole picodollars per token or unit. */
function compileRate(value: number | undefined, field: string, digits: number): Rate | undefined {
  if (value == null) return undefined;
  let exact: Decimal;
  try {
    exact = parseRate(value);
  } catch (error) {
    throw new Unpriceable(`invalid ${field}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const picos = exact.scale <= digits ? exact.coef * 10n ** BigInt(digits - exact.scale) : null;
  return { exact, text: formatDecimal(exact), picos: picos !== null && picos <= MAX_SAFE ? Number(picos) : Number.NaN };
}

// Rate precedence (see calculate.ts): base, then the tier, then the window, then the service
// tier, then batch; each layer replaces only the rates it names.
function resolveCharges(plan: PricingPlan, tier: number, window: number, service: number, batch: boolean): TokenCharges {
  const rates: TokenRates = { ...plan.base.rates };
  const tierLayer = plan.tiers?.layers[tier];
  if (tierLayer !== undefined) overlay(rates, tierLayer.rates);
  const windowLayer = plan.windows?.layers[window];
  if (windowLayer !== undefined) overlay(rates, windowLayer.rates);
  const serviceLayer = plan.serviceTiers?.layers[service];
  if (serviceLayer !== undefined) overlay(rates, serviceLayer.rates);
  if (batch) {
    rates.input = plan.batch.rates.input ?? rates.input;
    rates.output = plan.batch.rates.output ?? rates.output;
  }
  const { audioInput, reasoning, audioOutput } = plan.extra;
  return [
    { item: 'input', rate: rates.input, note: undefined },
    fallback('cached_input', rates.cached, 'input', rates.input),
    fallback('cache_write', rates.write, 'input', rates.input),
    // A 1-hour write costs more than a 5-minute one; without its own rate the 5-minute rate is
    // the nearest the pricing knows, and the line says so.
    rates.write !== undefined ? fallback('cache_write_1h', rates.write1h, 'cache_write', rates.write) : fallback('cache_write_1h', rates.write1h, 'input', rates.input),
    fallback('audio_input', audioInput, 'input', rates.input),
    { item: 'output', rate: rates.output, note: undefined },
    fallback('reasoning_output', reasoning, 'output', rates.output),
    fallback('audio_output', audioOutput, 'output', rates.output),
  ];
}

function overlay(rates: TokenRates, source: TokenRates): void {
  rates.input = source.input ?? rates.input;
  rates.output = source.output ?? rates.output;
  rates.cached = source.cached ?? rates.cached;
  rates.write = source.write ?? rates.write;
  rates.write1h = source.write1h ?? rates.write1h;
}

function fallback(item: string, own: Rate | undefined, otherItem: string, other: Rate | undefined): TokenCharge {
  if (own !== undefined || other === undefined) return { item, rate: own, note: undefined };
  return { item, rate: other, note: `no ${item} rate; charged at the ${otherItem} rate` };
}
