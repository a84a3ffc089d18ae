// LiteLLM's model_prices_and_context_window.json mapped onto the catalog's shape: one entry per
// model the catalog could list (chat, responses and embedding models of the provider types it
// covers), its USD-per-token prices turned exactly into USD per million tokens. A price of 0 in
// the list means "not given" there, and absent here (the catalog never writes an unknown as 0).
import type { Pricing, TokenRates } from '../../../core/types/pricing.js';
import { formatDecimal, multiply, parseDecimal } from '../money.js';

/** The list's entry for one model, as far as it is read here. */
export type ListEntry = Record<string, unknown>;

export interface ListedModel {
  /** The catalog's provider type (its first level). */
  type: string;
  /** The model name as the provider's API names it. */
  name: string;
  pricing: Pricing;
}

/** litellm_provider -> the catalog's provider type, and the prefix the list puts on its keys. */
const PROVIDERS: Readonly<Record<string, { type: string; prefix: string }>> = {
  openai: { type: 'openai', prefix: '' },
  anthropic: { type: 'anthropic', prefix: '' },
  gemini: { type: 'gemini', prefix: 'gemini/' },
  deepseek: { type: 'deepseek', prefix: 'deepseek/' },
  xai: { type: 'xai', prefix: 'xai/' },
  groq: { type: 'groq', prefix: 'groq/' },
  mistral: { type: 'mistral', prefix: 'mistral/' },
  together_ai: { type: 'together', prefix: 'together_ai/' },
  fireworks_ai: { type: 'fireworks', prefix: 'fireworks_ai/' },
};

const MODES: ReadonlySet<string> = new Set(['chat', 'responses', 'embedding']);

/** The list's fields of the rates a tier, a window or a service tier may carry, by suffix. */
function tokenRates(entry: ListEntry, suffix: string): TokenRates {
  return defined({
    input_per_mtok: perMtok(entry[`input_cost_per_token${suffix}`]),
    output_per_mtok: perMtok(entry[`output_cost_per_token${suffix}`]),
    cached_input_per_mtok: perMtok(entry[`cache_read_input_token_cost${suffix}`]),
    cache_write_per_mtok: perMtok(entry[`cache_creation_input_token_cost${suffix}`]),
  });
}

/** Every model of the list the catalog could hold, keyed `<type>/<name>`. */
export function mapList(list: Record<string, ListEntry>): Map<string, ListedModel> {
  const models = new Map<string, ListedModel>();
  for (const [key, entry] of Object.entries(list)) {
    const provider = PROVIDERS[String(entry['litellm_provider'])];
    if (provider === undefined || !MODES.has(String(entry['mode']))) continue;
    const prefixed = key.startsWith(provider.prefix) && provider.prefix !== '';
    const name = prefixed ? key.slice(provider.prefix.length) : key;
    const id = `${provider.type}/${name}`;
    // The list keeps some models under both names (`deepseek-chat`, `deepseek/deepseek-chat`): the provider's own key wins.
    if (models.has(id) && !prefixed) continue;
    const pricing = pricingOf(entry);
    if (pricing !== null) models.set(id, { type: provider.type, name, pricing });
  }
  return models;
}

/** The catalog pricing of one entry, or null when it has no input rate. */
export function pricingOf(entry: ListEntry): Pricing | null {
  const base = tokenRates(entry, '');
  if (base.input_per_mtok === undefined) return null;
  const pricing: Pricing = { currency: 'USD', ...base };
  Object.assign(
    pricing,
    defined({
      cache_write_1h_per_mtok: perMtok(entry['cache_creation_input_token_cost_above_1hr']),
      audio_input_per_mtok: perMtok(entry['input_cost_per_audio_token']),
      audio_output_per_mtok: perMtok(entry['output_cost_per_audio_token']),
      reasoning_output_per_mtok: perMtok(entry['output_cost_per_reasoning_token']),
    }),
  );
  const threshold = longContextThreshold(entry);
  if (threshold !== null) {
    // The catalog's rule: a tiered price carries no flat batch or service tier rates.
    const above = tokenRates(entry, `_above_${threshold}k_tokens`);
    const write1h = perMtok(entry[`cache_creation_input_token_cost_above_1hr_above_${threshold}k_tokens`]);
    if (write1h !== undefined) above.cache_write_1h_per_mtok = write1h;
    pricing.tiers = [{ up_to_tokens: threshold * 1000, ...tierRates(pricing) }, above];
    return pricing;
  }
  Object.assign(pricing, defined({ batch_input_per_mtok: perMtok(entry['input_cost_per_token_batches']), batch_output_per_mtok: perMtok(entry['output_cost_per_token_batches']) }));
  const serviceTiers: Record<string, TokenRates> = {};
  for (const tier of ['flex', 'priority']) {
    const rates = tokenRates(entry, `_${tier}`);
    if (Object.keys(rates).length > 0) serviceTiers[tier] = rates;
  }
  if (Object.keys(serviceTiers).length > 0) pricing.service_tiers = serviceTiers;
  return pricing;
}

/** The smallest `_above_<N>k_tokens` bound of the entry's input price, in thousands of tokens. */
function longContextThreshold(entry: ListEntry): number | null {
  let smallest: number | null = null;
  for (const key of Object.keys(entry)) {
    const match = /^input_cost_per_token_above_(\d+)k_tokens$/.exec(key);
    if (match !== null && perMtok(entry[key]) !== undefined) smallest = Math.min(smallest ?? Infinity, Number(match[1]));
  }
  return smallest;
}

function tierRates(pricing: Pricing): TokenRates {
  const { input_per_mtok, output_per_mtok, cached_input_per_mtok, cache_write_per_mtok, cache_write_1h_per_mtok } = pricing;
  return defined({ input_per_mtok, output_per_mtok, cached_input_per_mtok, cache_write_per_mtok, cache_write_1h_per_mtok });
}

const ONE_MILLION = { coef: 1_000_000n, scale: 0 };

/** USD per token as USD per million tokens, exactly (1.25e-06 is 1.25, not 1.2499999999999998). */
export function perMtok(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return Number(formatDecimal(multiply(parseDecimal(value), ONE_MILLION)));
}

function defined<T extends object>(fields: T): T {
  const out = {} as T;
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}
