// catalog:update against a saved subset of LiteLLM's list (test/fixtures/litellm/, 14 entries of
// the list as of 2026-07-24) served by nock, on a small catalog copied to a temporary file.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import { parse } from 'yaml';
import { mapList, perMtok, pricingOf } from './litellm.js';
import { runUpdate, type UpdateOptions } from './main.js';

const LIST_URL = 'https://prices.example/model_prices_and_context_window.json';
const fixture = (name: string): URL => new URL(`../../../test/fixtures/litellm/${name}`, import.meta.url);
const LIST = JSON.parse(readFileSync(fixture('model_prices_and_context_window.json'), 'utf8')) as Record<string, Record<string, unknown>>;

describe('catalog:update', () => {
  let dir: string;
  let catalog: string;
  let printed: string;

  const run = (options: Partial<UpdateOptions> = {}) => runUpdate({ url: LIST_URL, catalog, write: false, only: [], ...options }, (text) => (printed += text));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-catalog-update-'));
    catalog = join(dir, 'catalog.yaml');
    copyFileSync(fixture('catalog.yaml'), catalog);
    printed = '';
    nock.disableNetConnect();
    nock('https://prices.example').get('/model_prices_and_context_window.json').reply(200, LIST);
  });
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the changed rates, the added and the retired models, and writes nothing', async () => {
    const before = readFileSync(catalog, 'utf8');
    const diff = await run();
    expect([...diff.changed.keys()]).to.deep.equal(['openai/gpt-4o-mini', 'openai/gpt-4o-2024-05-13', 'openai/gpt-5', 'anthropic/claude-sonnet-4-5']);
    expect(printed).to.include('  openai/gpt-5  service_tiers.flex.input_per_mtok: (none) -> 0.625\n');
    expect(printed).to.include('  anthropic/claude-sonnet-4-5  cache_write_1h_per_mtok: (none) -> 6\n');
    expect(printed).to.include('  anthropic/claude-sonnet-4-5  tiers[1].cache_write_1h_per_mtok: (none) -> 12\n');
    expect(printed).to.include('  openai/gpt-4o-2024-05-13  input_per_mtok: 0.15 -> 5\n');
    // The time window only the catalog has is no difference: the list has none to compare.
    expect(diff.changed.has('deepseek/deepseek-v4-flash')).to.equal(false);
    expect(diff.added.map((m) => `${m.type}/${m.name}`)).to.deep.equal(['openai/gpt-5.4', 'anthropic/claude-opus-4-5', 'deepseek/deepseek-chat']);
    expect(diff.retired).to.deep.equal(['openai/gpt-retired']);
    expect(printed).to.include('Nothing written');
    expect(readFileSync(catalog, 'utf8')).to.equal(before);
  });

  it('with --write, rewrites only the pricing of changed models, keeping comments and aliases, and never writes through an alias', async () => {
    await run({ write: true });
    const text = readFileSync(catalog, 'utf8');
    expect(text).to.include('# A small catalog for catalog:update');
    expect(text).to.include('  gpt-4o-mini-2024-07-18: *openai-mini\n  # An alias whose price');
    expect(printed).to.include('not written: openai/gpt-4o-2024-05-13 input_per_mtok: shared through a YAML alias; break the alias to give it 5');
    const written = parse(text) as Record<string, Record<string, { pricing: Record<string, unknown> }>>;
    expect(written['openai']!['gpt-5']!.pricing).to.deep.equal({
      currency: 'USD',
      input_per_mtok: 1.25,
      cached_input_per_mtok: 0.125,
      output_per_mtok: 10,
      service_tiers: {
        flex: { input_per_mtok: 0.625, output_per_mtok: 5, cached_input_per_mtok: 0.0625 },
        priority: { input_per_mtok: 2.5, output_per_mtok: 20, cached_input_per_mtok: 0.25 },
      },
    });
    expect(written['anthropic']!['claude-sonnet-4-5']!.pricing['tiers']).to.deep.equal([
      { up_to_tokens: 200000, input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6 },
      { input_per_mtok: 6, output_per_mtok: 22.5, cached_input_per_mtok: 0.6, cache_write_per_mtok: 7.5, cache_write_1h_per_mtok: 12 },
    ]);
    // Untouched entries keep their bytes: the DeepSeek entry and its time window.
    expect(text).to.include(readFileSync(fixture('catalog.yaml'), 'utf8').slice(readFileSync(fixture('catalog.yaml'), 'utf8').indexOf('deepseek:')));
    // What is left is the alias, for a person.
    printed = '';
    nock('https://prices.example').get('/model_prices_and_context_window.json').reply(200, LIST);
    expect([...(await run()).changed.keys()]).to.deep.equal(['openai/gpt-4o-2024-05-13']);
  });

  it('with --only, reports and writes the named models alone', async () => {
    const diff = await run({ write: true, only: ['openai/gpt-5'] });
    expect([...diff.changed.keys()]).to.deep.equal(['openai/gpt-5']);
    expect(diff.added).to.deep.equal([]);
    const written = parse(readFileSync(catalog, 'utf8')) as Record<string, Record<string, { pricing: Record<string, unknown> }>>;
    expect(written['openai']!['gpt-4o-mini']!.pricing['service_tiers']).to.equal(undefined);
    expect(written['openai']!['gpt-5']!.pricing['service_tiers']).to.have.keys('flex', 'priority');
  });

  it('fails on a list it cannot read', async () => {
    nock.cleanAll();
    nock('https://prices.example').get('/model_prices_and_context_window.json').reply(503, 'unavailable');
    let error: unknown;
    await run().catch((err: unknown) => (error = err));
    expect((error as Error).message).to.equal(`GET ${LIST_URL}: 503 Service Unavailable`);
  });

  describe('mapping the list', () => {
    it('turns USD per token into USD per million tokens exactly', () => {
      expect([perMtok(1.25e-6), perMtok(7.5e-8), perMtok(2.8e-9), perMtok(3.625e-9), perMtok(0), perMtok('1')]).to.deep.equal([1.25, 0.075, 0.0028, 0.003625, undefined, undefined]);
    });
    it('maps long-context prices to tiers (no flat service tiers beside them) and 1-hour writes', () => {
      expect(pricingOf(LIST['gemini/gemini-2.5-pro']!)).to.deep.equal({
        currency: 'USD',
        input_per_mtok: 1.25,
        output_per_mtok: 10,
        cached_input_per_mtok: 0.125,
        tiers: [
          { up_to_tokens: 200000, input_per_mtok: 1.25, output_per_mtok: 10, cached_input_per_mtok: 0.125 },
          { input_per_mtok: 2.5, output_per_mtok: 15, cached_input_per_mtok: 0.25 },
        ],
      });
      expect(pricingOf(LIST['claude-opus-4-5']!)).to.include({ cache_write_per_mtok: 6.25, cache_write_1h_per_mtok: 10 });
    });
    it('keeps the provider types the catalog covers, chat and embedding models only, by the name the provider uses', () => {
      const ids = [...mapList(LIST).keys()];
      expect(ids).to.include.members(['openai/gpt-5', 'gemini/gemini-2.5-pro', 'deepseek/deepseek-chat', 'xai/grok-4-0709']);
      expect(ids.some((id) => id.includes('dall-e') || id.includes('ai21') || id.includes('sample_spec'))).to.equal(false);
    });
  });
});
