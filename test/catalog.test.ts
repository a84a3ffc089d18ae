// config/catalog.yaml: the file validates against its schema, every price is usable by the
// pricing plugin (a known rate, nothing negative, tiers in order, time windows that parse), and a
// handful of prices match what the providers publish (docs/catalog.md says where each comes from).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import type { ModelMetadata } from '../core/types/models.js';
import type { Pricing } from '../core/types/pricing.js';
import { tierBound } from '../plugins/pricing/tier.js';
import { parseRange } from '../plugins/pricing/time-window.js';
import { compare } from '../plugins/pricing/money.js';

type Catalog = Record<string, Record<string, ModelMetadata>>;

const catalogUrl = new URL('../config/catalog.yaml', import.meta.url);
const schemaUrl = new URL('../config/catalog.schema.json', import.meta.url);
const catalog = parse(readFileSync(catalogUrl, 'utf8')) as Catalog;
const schema = JSON.parse(readFileSync(schemaUrl, 'utf8')) as object;
const validate = new Ajv({ allErrors: true }).compile(schema);

/** Per-unit rates: any one of them (or input_per_mtok) makes a price usable. */
const UNIT_RATES = ['input_per_image', 'per_image', 'per_request', 'per_character_input', 'per_second_input', 'per_second_output', 'per_page'] as const;

interface Entry {
  id: string;
  meta: ModelMetadata;
}

const entries: Entry[] = Object.entries(catalog).flatMap(([provider, models]) =>
  Object.entries(models).map(([name, meta]) => ({ id: `${provider}/${name}`, meta })),
);
const priced = entries.filter((e): e is Entry & { meta: { pricing: Pricing } } => e.meta.pricing != null);

function model(provider: string, name: string): ModelMetadata {
  const meta = catalog[provider]?.[name];
  if (meta === undefined) throw new Error(`${provider}/${name} is not in the catalog`);
  return meta;
}

function pricing(provider: string, name: string): Pricing {
  const p = model(provider, name).pricing;
  if (p == null) throw new Error(`${provider}/${name} has no pricing`);
  return p;
}

/** Every number anywhere under `value`, with its path. */
function numbers(value: unknown, path: string): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => numbers(v, `${path}.${k}`));
  }
  return [];
}

describe('config/catalog.yaml', () => {
  it('validates against config/catalog.schema.json', () => {
    const ok = validate(catalog);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).to.deep.equal([]);
    expect(ok).to.equal(true);
  });

  it('covers every provider type it promises, and leaves OpenRouter to its own cost report', () => {
    expect(Object.keys(catalog)).to.include.members(['openai', 'anthropic', 'gemini', 'groq', 'mistral', 'xai', 'deepseek', 'together', 'fireworks']);
    expect(catalog).not.to.have.property('openrouter');
    expect(entries.length).to.be.greaterThan(100);
  });

  it('every model has a context window, and max output fits in it', () => {
    for (const { id, meta } of entries) {
      expect(meta.context_window, id).to.be.a('number').and.greaterThan(0);
      if (meta.max_output_tokens !== undefined) {
        expect(meta.max_output_tokens, id).to.be.at.most(meta.context_window as number);
      }
    }
  });

  it('every model with a price names the page it came from', () => {
    for (const { id, meta } of priced) {
      expect(meta.pricing_sources?.['url'], id).to.be.a('string').and.match(/^https:\/\//);
      expect(meta.pricing_sources?.['checked'], id).to.be.a('string').and.match(/^\d{4}-\d{2}/);
    }
  });

  it('every pricing has an input rate or a per-unit rate', () => {
    for (const { id, meta } of priced) {
      const p = meta.pricing;
      const usable = p.input_per_mtok !== undefined || UNIT_RATES.some((k) => p[k] !== undefined);
      expect(usable, `${id} has no input or per-unit rate`).to.equal(true);
    }
  });

  it('no price is negative or not a finite number', () => {
    for (const { id, meta } of priced) {
      for (const [path, n] of numbers(meta.pricing, id)) {
        expect(Number.isFinite(n), path).to.equal(true);
        expect(n, path).to.be.at.least(0);
      }
    }
  });

  it('no price is 0: an unknown price is left out, never written as free', () => {
    for (const { id, meta } of priced) {
      for (const [path, n] of numbers(meta.pricing, id)) {
        if (/up_to_/.test(path)) continue;
        expect(n, path).to.be.greaterThan(0);
      }
    }
  });

  it('cache and batch rates are discounts, never above the standard rate', () => {
    for (const { id, meta } of priced) {
      const p = meta.pricing;
      const levels: Array<Pick<Pricing, 'input_per_mtok' | 'cached_input_per_mtok'>> = [p, ...(p.tiers ?? [])];
      for (const level of levels) {
        if (level.cached_input_per_mtok !== undefined && level.input_per_mtok !== undefined) {
          expect(level.cached_input_per_mtok, `${id} cached`).to.be.at.most(level.input_per_mtok);
        }
      }
      if (p.batch_input_per_mtok !== undefined) expect(p.batch_input_per_mtok, `${id} batch in`).to.be.at.most(p.input_per_mtok ?? 0);
      if (p.batch_output_per_mtok !== undefined) expect(p.batch_output_per_mtok, `${id} batch out`).to.be.at.most(p.output_per_mtok ?? 0);
    }
  });

  it('tiers are sorted by bound, with the single unbounded catch-all last', () => {
    for (const { id, meta } of priced) {
      const tiers = meta.pricing.tiers;
      if (tiers === undefined) continue;
      const bounds = tiers.map(tierBound);
      const open = bounds.filter((b) => b === null).length;
      expect(open, `${id}: one unbounded tier`).to.equal(1);
      expect(bounds[bounds.length - 1], `${id}: the unbounded tier comes last`).to.equal(null);
      for (let i = 1; i < bounds.length - 1; i += 1) {
        expect(compare(bounds[i - 1]!, bounds[i]!), `${id}: tier ${i} bound`).to.equal(-1);
      }
      // Base rates are what a tier-less reader sees; they must be the first tier's.
      const first = tiers[0]!;
      for (const k of ['input_per_mtok', 'output_per_mtok', 'cached_input_per_mtok', 'cache_write_per_mtok', 'cache_write_1h_per_mtok'] as const) {
        if (first[k] !== undefined) expect(meta.pricing[k], `${id} base ${k}`).to.equal(first[k]);
      }
      // A flat batch or service-tier rate would override every tier (both apply after tiers).
      expect(meta.pricing.batch_input_per_mtok, `${id}: no batch rate on a tiered price`).to.equal(undefined);
      expect(meta.pricing.batch_output_per_mtok, `${id}: no batch rate on a tiered price`).to.equal(undefined);
      expect(meta.pricing.service_tiers, `${id}: no service tier rates on a tiered price`).to.equal(undefined);
    }
  });

  it('every time window range parses (UTC, HH:MM, known days)', () => {
    for (const { id, meta } of priced) {
      for (const window of meta.pricing.time_windows ?? []) {
        for (const range of window.utc_ranges) expect(() => parseRange(range), id).not.to.throw();
      }
    }
  });

  it('gemini keys carry no "models/" prefix', () => {
    for (const name of Object.keys(catalog['gemini'] ?? {})) expect(name).not.to.match(/^models\//);
  });

  describe('spot checks against the providers\' pricing pages', () => {
    it('openai gpt-4o-mini', () => {
      expect(pricing('openai', 'gpt-4o-mini')).to.deep.include({
        input_per_mtok: 0.15,
        output_per_mtok: 0.6,
        cached_input_per_mtok: 0.075,
        batch_input_per_mtok: 0.075,
        batch_output_per_mtok: 0.3,
      });
      expect(model('openai', 'gpt-4o-mini')).to.include({ context_window: 128000, max_output_tokens: 16384 });
      expect(pricing('openai', 'gpt-4o-mini-2024-07-18')).to.deep.equal(pricing('openai', 'gpt-4o-mini'));
    });

    it('openai gpt-4.1, gpt-5, o3 and embeddings', () => {
      expect(pricing('openai', 'gpt-4.1')).to.deep.include({ input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8 });
      expect(model('openai', 'gpt-4.1').context_window).to.equal(1047576);
      expect(pricing('openai', 'gpt-5')).to.deep.include({ input_per_mtok: 1.25, cached_input_per_mtok: 0.125, output_per_mtok: 10 });
      expect(pricing('openai', 'o3')).to.deep.include({ input_per_mtok: 2, output_per_mtok: 8 });
      expect(pricing('openai', 'text-embedding-3-small').input_per_mtok).to.equal(0.02);
      expect(pricing('openai', 'text-embedding-3-large').input_per_mtok).to.equal(0.13);
    });

    it('anthropic: cache read and 5-minute cache write', () => {
      expect(pricing('anthropic', 'claude-haiku-4-5')).to.deep.include({
        input_per_mtok: 1,
        output_per_mtok: 5,
        cached_input_per_mtok: 0.1,
        cache_write_per_mtok: 1.25,
      });
      expect(pricing('anthropic', 'claude-opus-4-5')).to.deep.include({ input_per_mtok: 5, output_per_mtok: 25, cache_write_per_mtok: 6.25, cached_input_per_mtok: 0.5 });
      expect(pricing('anthropic', 'claude-sonnet-4-6')).to.deep.include({ input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3 });
    });

    it('anthropic claude-sonnet-4-5: long-context tier above 200K input tokens', () => {
      const tiers = pricing('anthropic', 'claude-sonnet-4-5').tiers;
      expect(tiers?.[0]).to.include({ up_to_tokens: 200000, input_per_mtok: 3, output_per_mtok: 15 });
      expect(tiers?.[1]).to.include({ input_per_mtok: 6, output_per_mtok: 22.5 });
    });

    it('gemini-2.5-pro: <=200K and >200K tiers', () => {
      const p = pricing('gemini', 'gemini-2.5-pro');
      expect(p.tiers).to.deep.equal([
        { up_to_tokens: 200000, input_per_mtok: 1.25, output_per_mtok: 10, cached_input_per_mtok: 0.125 },
        { input_per_mtok: 2.5, output_per_mtok: 15, cached_input_per_mtok: 0.25 },
      ]);
      expect(pricing('gemini', 'gemini-2.5-flash')).to.deep.include({ input_per_mtok: 0.3, output_per_mtok: 2.5 });
      expect(pricing('gemini', 'gemini-2.5-flash-lite')).to.deep.include({ input_per_mtok: 0.1, output_per_mtok: 0.4 });
    });

    it('deepseek (card of 2026-09): off-peak base rates, twice that at peak on weekdays 01:00-04:00 and 06:00-10:00 UTC', () => {
      const peak = [
        { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '01:00', end: '04:00' },
        { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '06:00', end: '10:00' },
      ];
      const priced = (input: number, cached: number, output: number): Pricing => ({
        currency: 'USD',
        input_per_mtok: input,
        cached_input_per_mtok: cached,
        output_per_mtok: output,
        time_windows: [{ label: 'peak', utc_ranges: peak, pricing: { input_per_mtok: input * 2, cached_input_per_mtok: cached * 2, output_per_mtok: output * 2 } }],
      });
      expect(pricing('deepseek', 'deepseek-flash')).to.deep.equal(priced(0.14, 0.0028, 0.28));
      expect(pricing('deepseek', 'deepseek-pro')).to.deep.equal(priced(0.435, 0.003625, 0.87));
      // The v4 names and the legacy aliases are priced as the model they name.
      expect(pricing('deepseek', 'deepseek-v4-flash')).to.deep.equal(pricing('deepseek', 'deepseek-flash'));
      expect(pricing('deepseek', 'deepseek-chat')).to.deep.equal(pricing('deepseek', 'deepseek-flash'));
      expect(pricing('deepseek', 'deepseek-v4-pro')).to.deep.equal(pricing('deepseek', 'deepseek-pro'));
    });

    it('anthropic: every model that writes to the cache has a 1-hour write rate of 2x input, beside the 5-minute 1.25x', () => {
      for (const [name, meta] of Object.entries(catalog['anthropic'] ?? {})) {
        const levels: Array<Pick<Pricing, 'input_per_mtok' | 'cache_write_1h_per_mtok' | 'cached_input_per_mtok'>> = [meta.pricing!, ...(meta.pricing!.tiers ?? [])];
        for (const level of levels) {
          expect(level.cache_write_1h_per_mtok, name).to.equal(Number(((level.input_per_mtok ?? 0) * 2).toPrecision(12)));
          expect(level.cached_input_per_mtok, `${name} has a cache read rate`).to.be.a('number');
        }
      }
      expect(pricing('anthropic', 'claude-opus-4-5').cache_write_1h_per_mtok).to.equal(10);
      expect(pricing('anthropic', 'claude-sonnet-5-5')).to.deep.include({ cached_input_per_mtok: 0.1, cache_write_per_mtok: 2.5, cache_write_1h_per_mtok: 4 });
    });

    it('openai: flex and priority service tiers', () => {
      expect(pricing('openai', 'gpt-5').service_tiers).to.deep.equal({
        flex: { input_per_mtok: 0.625, cached_input_per_mtok: 0.0625, output_per_mtok: 5 },
        priority: { input_per_mtok: 2.5, cached_input_per_mtok: 0.25, output_per_mtok: 20 },
      });
    });

    it('groq llama-3.3-70b-versatile and xai grok-4-0709', () => {
      expect(pricing('groq', 'llama-3.3-70b-versatile')).to.deep.include({ input_per_mtok: 0.59, output_per_mtok: 0.79 });
      expect(model('groq', 'llama-3.3-70b-versatile')).to.include({ context_window: 131072, max_output_tokens: 32768 });
      expect(pricing('xai', 'grok-4-0709')).to.deep.include({ input_per_mtok: 3, cached_input_per_mtok: 0.75, output_per_mtok: 15 });
    });
  });

  describe('the schema rejects mistakes', () => {
    const good = { context_window: 1000, modes: ['chat'], pricing: { input_per_mtok: 1 }, pricing_sources: { url: 'https://example.com', checked: '2026-11' } };
    const cases: Array<[string, unknown]> = [
      ['an unknown provider type', { opnai: { m: good } }],
      ['a typo in a model field', { openai: { m: { ...good, context_windw: 5 } } }],
      ['a typo in a pricing field', { openai: { m: { ...good, pricing: { input_per_mtk: 1 } } } }],
      ['a negative price', { openai: { m: { ...good, pricing: { input_per_mtok: -1 } } } }],
      ['a price with no input or per-unit rate', { openai: { m: { ...good, pricing: { output_per_mtok: 1 } } } }],
      ['a missing context window', { openai: { m: { modes: ['chat'] } } }],
      ['a price without its source', { openai: { m: { context_window: 1000, modes: ['chat'], pricing: { input_per_mtok: 1 } } } }],
      ['an unknown mode', { openai: { m: { ...good, modes: ['chatt'] } } }],
      ['a tier with both bounds', { openai: { m: { ...good, pricing: { input_per_mtok: 1, tiers: [{ up_to_tokens: 1, up_to_mtok: 1 }, {}] } } } }],
      ['a time window at 25:00', { deepseek: { m: { ...good, pricing: { input_per_mtok: 1, time_windows: [{ utc_ranges: [{ start: '25:00', end: '01:00' }], pricing: { input_per_mtok: 0.5 } }] } } } }],
      ['a service tier named like the standard one', { openai: { m: { ...good, pricing: { input_per_mtok: 1, service_tiers: { default: { input_per_mtok: 1 } } } } } }],
      ['a service tier with a typo in a rate', { openai: { m: { ...good, pricing: { input_per_mtok: 1, service_tiers: { flex: { input_per_mtk: 1 } } } } } }],
      ['a time window with a long day name', { deepseek: { m: { ...good, pricing: { input_per_mtok: 1, time_windows: [{ utc_ranges: [{ days: ['monday'], start: '16:30', end: '00:30' }], pricing: { input_per_mtok: 0.5 } }] } } } }],
    ];
    for (const [name, doc] of cases) {
      it(name, () => {
        expect(validate(doc)).to.equal(false);
      });
    }

    it('accepts a well-formed time window that wraps past midnight', () => {
      const doc = {
        deepseek: {
          m: {
            ...good,
            pricing: {
              input_per_mtok: 1,
              time_windows: [{ label: 'off-peak', utc_ranges: [{ start: '16:30', end: '00:30' }], pricing: { input_per_mtok: 0.5, output_per_mtok: 0.5 } }],
            },
          },
        },
      };
      expect(validate(doc), JSON.stringify(validate.errors)).to.equal(true);
    });
  });
});
