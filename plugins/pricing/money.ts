// Exact decimal money. A rate arrives as a JS number whose binary value is not the decimal the
// operator wrote (0.075 is stored as 0.07499999999999999722...), so each number is rebuilt from
// the shortest decimal string that round-trips to it (String(n)) and kept as a scaled BigInt.
// Sums and products of such values are exact; the only rounding is toPicos(), applied once to
// a final total.
//
// Resolution: 1 picodollar (1e-12 USD). It holds one token at $0.000001/MTok exactly, and a
// signed 64-bit column of picodollars still reaches about $9.2 million.
// Rounding rule: half away from zero (half-up for the non-negative amounts priced here), not
// banker's: 2.5 picodollars becomes 3.

/** value = coef / 10^scale, with scale >= 0. */
export interface Decimal {
  readonly coef: bigint;
  readonly scale: number;
}

export const PICO_SCALE = 12;
export const PICOS_PER_USD = 10n ** 12n;
export const ZERO: Decimal = { coef: 0n, scale: 0 };

const DECIMAL_TEXT = /^([+-])?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
// A double never needs more than ~330 digits either way; a longer exponent is a typo or an attack.
const MAX_EXPONENT = 400;

/** Parse a finite number (via its shortest round-trip string) or a decimal string, exactly. */
export function parseDecimal(value: number | string): Decimal {
  // Token counts are integers: no text round trip for them (this runs on every priced call).
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value === 0 ? ZERO : { coef: BigInt(value), scale: 0 };
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`not a finite number: ${String(value)}`);
  }
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL_TEXT.exec(text);
  const whole = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  if (match === null || whole.length + fraction.length === 0) {
    throw new RangeError(`not a decimal number: ${JSON.stringify(text)}`);
  }
  const exponent = Number(match[4] ?? '0') - fraction.length;
  if (Math.abs(exponent) > MAX_EXPONENT) throw new RangeError(`exponent out of range: ${text}`);
  let coef = BigInt(whole + fraction);
  if (match[1] === '-') coef = -coef;
  return exponent >= 0 ? normalize(coef * 10n ** BigInt(exponent), 0) : normalize(coef, -exponent);
}

/** A price: a non-negative decimal. */
/**
 * Rates are a few hundred distinct numbers from the catalog, parsed on every call: each is
 * parsed once and remembered (Decimals are never mutated, so sharing them is safe).
 */
const RATE_CACHE = new Map<number | string, Decimal>();
const RATE_CACHE_LIMIT = 4096;

export function parseRate(value: number | string): Decimal {
  const cached = RATE_CACHE.get(value);
  if (cached !== undefined) return cached;
  const rate = parseDecimal(value);
  if (rate.coef < 0n) throw new RangeError(`negative rate: ${String(value)}`);
  if (RATE_CACHE.size < RATE_CACHE_LIMIT) RATE_CACHE.set(value, rate);
  return rate;
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return normalize(a.coef * pow10(scale - a.scale) + b.coef * pow10(scale - b.scale), scale);
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return normalize(a.coef * b.coef, a.scale + b.scale);
}

/** a / 10^digits, exact (e.g. digits 6 turns a per-MTok amount into a per-token one). */
export function shiftDown(a: Decimal, digits: number): Decimal {
  return normalize(a.coef, a.scale + digits);
}

/** Negative, zero or positive as a is below, equal to or above b. */
export function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.coef * pow10(scale - a.scale);
  const right = b.coef * pow10(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The one rounding step: to whole picodollars, half away from zero. */
export function toPicos(a: Decimal): bigint {
  if (a.scale <= PICO_SCALE) return a.coef * pow10(PICO_SCALE - a.scale);
  const divisor = pow10(a.scale - PICO_SCALE);
  const negative = a.coef < 0n;
  const magnitude = negative ? -a.coef : a.coef;
  const quotient = magnitude / divisor;
  const rounded = (magnitude % divisor) * 2n >= divisor ? quotient + 1n : quotient;
  return negative ? -rounded : rounded;
}

/** Plain decimal text: no exponent, no trailing zeros, no "-0" ("0.0025", "12.3456789", "0"). */
export function formatDecimal(a: Decimal): string {
  const { coef, scale } = normalize(a.coef, a.scale);
  const negative = coef < 0n;
  const digits = (negative ? -coef : coef).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return (negative ? '-' : '') + whole + (fraction.length > 0 ? `.${fraction}` : '');
}

/** A whole number of picodollars as USD text. */
export function formatUsd(picos: bigint): string {
  return formatDecimal({ coef: picos, scale: PICO_SCALE });
}

const ZERO_DIGIT = 0x30;
const LEADING_ZEROS = '0'.repeat(PICO_SCALE);

/** formatUsd for a non-negative safe integer of picodollars: the same text without BigInt. */
export function formatPicos(picos: number): string {
  // Below 1e21 a number prints as plain digits, so its text is the coefficient at PICO_SCALE.
  const digits = String(picos);
  const point = digits.length - PICO_SCALE;
  let end = digits.length;
  while (end > 0 && end > point && digits.charCodeAt(end - 1) === ZERO_DIGIT) end -= 1;
  if (point > 0) return end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
  return end === 0 ? '0' : `0.${LEADING_ZEROS.slice(0, -point)}${digits.slice(0, end)}`;
}

// Trailing zeros are dropped so equal values share one form and coefficients stay small.
function normalize(coef: bigint, scale: number): Decimal {
  if (coef === 0n) return ZERO;
  while (scale > 0 && coef % 10n === 0n) {
    coef /= 10n;
    scale -= 1;
  }
  return { coef, scale };
}

const POW10: bigint[] = Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}
