import { expect } from 'chai';
import type { Pricing } from '../../core/types/pricing.js';
import { emptyUsage, type Usage } from '../../core/types/usage.js';
import { calculateCost, type Cost, type CostOptions } from './calculate.js';
import { formatUsd } from './money.js';

// Every expected amount below is worked by hand as tokens x rate / 1e6 (or units x rate).

const usage = (counts: Partial<Usage>): Usage => ({ ...emptyUsage(), ...counts });
const NOON_MONDAY = new Date('2025-01-06T12:00:00Z');

// Catalogue rates, USD per MTok unless per unit.
const GPT_4O: Pricing = { input_per_mtok: 2.5, cached_input_per_mtok: 1.25, output_per_mtok: 10 };
const O3: Pricing = { input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8 };
const GPT_4O_AUDIO: Pricing = { input_per_mtok: 2.5, output_per_mtok: 10, audio_input_per_mtok: 40, audio_output_per_mtok: 80 };
const GPT_4O_MINI: Pricing = {
  input_per_mtok: 0.15,
  cached_input_per_mtok: 0.075,
  output_per_mtok: 0.6,
  batch_input_per_mtok: 0.075,
  batch_output_per_mtok: 0.3,
};
const FLASH_THINKING: Pricing = { input_per_mtok: 0.15, output_per_mtok: 0.6, reasoning_output_per_mtok: 3.5 };
const SONNET: Pricing = { input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75 };
const GEMINI_PRO: Pricing = {
  tiers: [
    { up_to_tokens: 200_000, input_per_mtok: 1.25, output_per_mtok: 10, cached_input_per_mtok: 0.31 },
    { input_per_mtok: 2.5, output_per_mtok: 15, cached_input_per_mtok: 0.625 },
  ],
};
const GEMINI_PRO_MTOK: Pricing = {
  tiers: [
    { up_to_mtok: 0.2, input_per_mtok: 1.25, output_per_mtok: 10 },
    { input_per_mtok: 2.5, output_per_mtok: 15 },
  ],
};
const DEEPSEEK_CHAT: Pricing = {
  input_per_mtok: 0.27,
  cached_input_per_mtok: 0.07,
  output_per_mtok: 1.1,
  time_windows: [
    {
      label: 'off-peak',
      utc_ranges: [{ start: '16:30', end: '00:30' }],
      pricing: { input_per_mtok: 0.135, cached_input_per_mtok: 0.035, output_per_mtok: 0.55 },
    },
  ],
};
const LAYERED: Pricing = {
  batch_input_per_mtok: 0.25,
  tiers: [{ up_to_tokens: 100, input_per_mtok: 1, output_per_mtok: 1 }, { input_per_mtok: 2, output_per_mtok: 2 }],
  time_windows: [{ label: 'night', utc_ranges: [{ start: '00:00', end: '06:00' }], pricing: { input_per_mtok: 0.5 } }],
};
const IMAGE_MODEL: Pricing = { input_per_mtok: 2, output_per_mtok: 10, per_request: 0.005, input_per_image: 0.02, per_image: 0.2 };

type Line = [item: string, quantity: number, rate: string, amount: string, note?: string];

interface Case {
  name: string;
  usage: Partial<Usage>;
  pricing: Pricing | null | undefined;
  opts?: Partial<CostOptions>;
  total: string | null;
  pico?: bigint;
  source?: Cost['source'];
  lines?: Line[];
  tier?: number;
  window?: string;
  service_tier?: string;
  reason?: string;
  notes?: string[];
  computed?: string | null;
}

const CACHED_AT_INPUT = 'no cached_input rate; charged at the input rate';
const WRITE_AT_INPUT = 'no cache_write rate; charged at the input rate';
const REASONING_AT_OUTPUT = 'no reasoning_output rate; charged at the output rate';
const SONNET_1H: Pricing = { ...SONNET, cache_write_1h_per_mtok: 6, per_web_search: 0.01 };
const GPT_5: Pricing = { input_per_mtok: 1.25, cached_input_per_mtok: 0.125, output_per_mtok: 10, service_tiers: { flex: { input_per_mtok: 0.625, cached_input_per_mtok: 0.0625, output_per_mtok: 5 } } };
/** 10000 prompt tokens: 6000 cache reads, 3000 cache writes of which 1000 live an hour; 500 out. */
const WRITES_1H: Partial<Usage> = { input_tokens: 10_000, cached_input_tokens: 6000, cache_write_tokens: 3000, cache_write_1h_tokens: 1000, output_tokens: 500 };

const DEEPSEEK_USAGE: Partial<Usage> = { input_tokens: 1_000_000, cached_input_tokens: 400_000, output_tokens: 100_000 };
// 600000 x 0.27 + 400000 x 0.07 + 100000 x 1.1 = 0.162 + 0.028 + 0.11
const DEEPSEEK_PEAK: Line[] = [
  ['input', 600_000, '0.27', '0.162'],
  ['cached_input', 400_000, '0.07', '0.028'],
  ['output', 100_000, '1.1', '0.11'],
];
// 600000 x 0.135 + 400000 x 0.035 + 100000 x 0.55 = 0.081 + 0.014 + 0.055
const DEEPSEEK_OFF_PEAK: Line[] = [
  ['input', 600_000, '0.135', '0.081'],
  ['cached_input', 400_000, '0.035', '0.014'],
  ['output', 100_000, '0.55', '0.055'],
];

const cases: Case[] = [
  // --- OpenAI ---
  {
    name: 'openai gpt-4o: cached prompt tokens are charged once, at the cached rate',
    usage: { input_tokens: 1000, cached_input_tokens: 400, output_tokens: 200 },
    pricing: GPT_4O,
    total: '0.004',
    pico: 4_000_000_000n,
    lines: [
      ['input', 600, '2.5', '0.0015'],
      ['cached_input', 400, '1.25', '0.0005'],
      ['output', 200, '10', '0.002'],
    ],
  },
  {
    name: 'openai gpt-4o: odd counts',
    usage: { input_tokens: 1234, output_tokens: 567 },
    pricing: GPT_4O,
    total: '0.008755', // 0.003085 + 0.00567
    pico: 8_755_000_000n,
  },
  {
    name: 'openai o3: reasoning tokens without a reasoning rate go at the output rate, not twice',
    usage: { input_tokens: 500, output_tokens: 1500, reasoning_tokens: 1000 },
    pricing: O3,
    total: '0.013',
    lines: [
      ['input', 500, '2', '0.001'],
      ['output', 500, '8', '0.004'],
      ['reasoning_output', 1000, '8', '0.008', REASONING_AT_OUTPUT],
    ],
  },
  {
    name: 'reasoning tokens at their own rate',
    usage: { input_tokens: 1000, output_tokens: 3000, reasoning_tokens: 2000 },
    pricing: FLASH_THINKING,
    total: '0.00775',
    lines: [
      ['input', 1000, '0.15', '0.00015'],
      ['output', 1000, '0.6', '0.0006'],
      ['reasoning_output', 2000, '3.5', '0.007'],
    ],
  },
  {
    name: 'openai audio tokens at audio rates',
    usage: { input_tokens: 1000, audio_input_tokens: 600, output_tokens: 500, audio_output_tokens: 400 },
    pricing: GPT_4O_AUDIO,
    total: '0.058',
    lines: [
      ['input', 400, '2.5', '0.001'],
      ['audio_input', 600, '40', '0.024'],
      ['output', 100, '10', '0.001'],
      ['audio_output', 400, '80', '0.032'],
    ],
  },
  {
    name: 'audio tokens without audio rates go at the input/output rates',
    usage: { input_tokens: 1000, audio_input_tokens: 600, output_tokens: 500, audio_output_tokens: 400 },
    pricing: { input_per_mtok: 2.5, output_per_mtok: 10 },
    total: '0.0075',
    lines: [
      ['input', 400, '2.5', '0.001'],
      ['audio_input', 600, '2.5', '0.0015', 'no audio_input rate; charged at the input rate'],
      ['output', 100, '10', '0.001'],
      ['audio_output', 400, '10', '0.004', 'no audio_output rate; charged at the output rate'],
    ],
  },

  // --- Anthropic ---
  {
    name: 'anthropic claude-sonnet: cache read and cache write at distinct rates',
    usage: { input_tokens: 10_000, cached_input_tokens: 6000, cache_write_tokens: 3000, output_tokens: 500 },
    pricing: SONNET,
    total: '0.02355',
    pico: 23_550_000_000n,
    lines: [
      ['input', 1000, '3', '0.003'],
      ['cached_input', 6000, '0.3', '0.0018'],
      ['cache_write', 3000, '3.75', '0.01125'],
      ['output', 500, '15', '0.0075'],
    ],
  },
  {
    name: 'anthropic without cache rates: cache tokens at the input rate, said so',
    usage: { input_tokens: 10_000, cached_input_tokens: 6000, cache_write_tokens: 3000, output_tokens: 500 },
    pricing: { input_per_mtok: 3, output_per_mtok: 15 },
    total: '0.0375',
    lines: [
      ['input', 1000, '3', '0.003'],
      ['cached_input', 6000, '3', '0.018', CACHED_AT_INPUT],
      ['cache_write', 3000, '3', '0.009', WRITE_AT_INPUT],
      ['output', 500, '15', '0.0075'],
    ],
  },

  // --- Gemini prompt-size tiers ---
  {
    name: 'gemini-2.5-pro: 200000 prompt tokens is the lower tier',
    usage: { input_tokens: 200_000, output_tokens: 1000 },
    pricing: GEMINI_PRO,
    total: '0.26',
    tier: 0,
    lines: [
      ['input', 200_000, '1.25', '0.25'],
      ['output', 1000, '10', '0.01'],
    ],
  },
  {
    name: 'gemini-2.5-pro: 200001 prompt tokens is the upper tier',
    usage: { input_tokens: 200_001, output_tokens: 1000 },
    pricing: GEMINI_PRO,
    total: '0.5150025',
    pico: 515_002_500_000n,
    tier: 1,
    lines: [
      ['input', 200_001, '2.5', '0.5000025'],
      ['output', 1000, '15', '0.015'],
    ],
  },
  {
    name: 'gemini tiers by up_to_mtok: 200000',
    usage: { input_tokens: 200_000, output_tokens: 1000 },
    pricing: GEMINI_PRO_MTOK,
    total: '0.26',
    tier: 0,
  },
  {
    name: 'gemini tiers by up_to_mtok: 200001',
    usage: { input_tokens: 200_001, output_tokens: 1000 },
    pricing: GEMINI_PRO_MTOK,
    total: '0.5150025',
    tier: 1,
  },
  {
    name: 'tier picked by the whole prompt (cached included); tier cached rate applies',
    usage: { input_tokens: 300_000, cached_input_tokens: 100_000 },
    pricing: GEMINI_PRO,
    total: '0.5625',
    tier: 1,
    lines: [
      ['input', 200_000, '2.5', '0.5'],
      ['cached_input', 100_000, '0.625', '0.0625'],
    ],
  },
  {
    name: 'above every bounded tier with no catch-all: the last tier',
    usage: { input_tokens: 5000, output_tokens: 10 },
    pricing: { tiers: [{ up_to_tokens: 1000, input_per_mtok: 1, output_per_mtok: 2 }, { up_to_tokens: 2000, input_per_mtok: 3, output_per_mtok: 4 }] },
    total: '0.01504',
    tier: 1,
  },
  {
    name: 'tier rates override base rates; base fills what the tier does not name',
    usage: { input_tokens: 500, output_tokens: 100 },
    pricing: { input_per_mtok: 9, output_per_mtok: 2, tiers: [{ up_to_tokens: 2000, input_per_mtok: 3 }, { up_to_tokens: 1000, input_per_mtok: 1 }] },
    total: '0.0007', // 500 x 1 + 100 x 2
    tier: 1,
  },
  {
    name: 'no tokens at all with tiers: zero, first tier',
    usage: {},
    pricing: GEMINI_PRO,
    total: '0',
    pico: 0n,
    tier: 0,
    lines: [],
  },

  // --- DeepSeek off-peak window, 16:30-00:30 UTC daily ---
  { name: 'deepseek 16:29 is peak', usage: DEEPSEEK_USAGE, pricing: DEEPSEEK_CHAT, opts: { at: new Date('2025-01-06T16:29:59Z') }, total: '0.3', lines: DEEPSEEK_PEAK },
  {
    name: 'deepseek 16:30 is off-peak',
    usage: DEEPSEEK_USAGE,
    pricing: DEEPSEEK_CHAT,
    opts: { at: new Date('2025-01-06T16:30:00Z') },
    total: '0.15',
    window: 'off-peak',
    lines: DEEPSEEK_OFF_PEAK,
  },
  {
    name: 'deepseek 00:29 is off-peak',
    usage: DEEPSEEK_USAGE,
    pricing: DEEPSEEK_CHAT,
    opts: { at: new Date('2025-01-07T00:29:00Z') },
    total: '0.15',
    window: 'off-peak',
  },
  { name: 'deepseek 00:30 is peak', usage: DEEPSEEK_USAGE, pricing: DEEPSEEK_CHAT, opts: { at: new Date('2025-01-07T00:30:00Z') }, total: '0.3' },
  { name: 'deepseek noon is peak', usage: DEEPSEEK_USAGE, pricing: DEEPSEEK_CHAT, total: '0.3' },

  // --- Precedence: base < tier < window < batch ---
  {
    name: 'window input rate over the tier; tier output rate stays',
    usage: { input_tokens: 1000, output_tokens: 1000 },
    pricing: LAYERED,
    opts: { at: new Date('2025-01-06T03:00:00Z') },
    total: '0.0025', // 1000 x 0.5 + 1000 x 2
    tier: 1,
    window: 'night',
  },
  {
    name: 'batch input rate over window and tier',
    usage: { input_tokens: 1000, output_tokens: 1000 },
    pricing: LAYERED,
    opts: { at: new Date('2025-01-06T03:00:00Z'), batch: true },
    total: '0.00225', // 1000 x 0.25 + 1000 x 2
    tier: 1,
    window: 'night',
  },
  {
    name: 'outside the window: tier rates',
    usage: { input_tokens: 1000, output_tokens: 1000 },
    pricing: LAYERED,
    total: '0.004',
    tier: 1,
  },

  // --- Batch ---
  {
    name: 'batch rates replace input and output',
    usage: { input_tokens: 1000, output_tokens: 1000 },
    pricing: GPT_4O_MINI,
    opts: { batch: true },
    total: '0.000375',
    lines: [
      ['input', 1000, '0.075', '0.000075'],
      ['output', 1000, '0.3', '0.0003'],
    ],
  },
  { name: 'same call, not batch', usage: { input_tokens: 1000, output_tokens: 1000 }, pricing: GPT_4O_MINI, total: '0.00075' },
  {
    name: 'batch keeps the cached rate',
    usage: { input_tokens: 1000, cached_input_tokens: 500 },
    pricing: GPT_4O_MINI,
    opts: { batch: true },
    total: '0.000075', // 500 x 0.075 + 500 x 0.075
  },
  {
    name: 'batch without batch rates: standard rates, noted',
    usage: { input_tokens: 1000 },
    pricing: GPT_4O,
    opts: { batch: true },
    total: '0.0025',
    notes: ['batch requested but the model has no batch rates; standard rates used'],
  },

  // --- Provider-reported cost (OpenRouter) ---
  {
    name: 'openrouter: provider cost wins over the catalogue',
    usage: { input_tokens: 100, output_tokens: 50, provider_cost_usd: 0.0001234 },
    pricing: { input_per_mtok: 1, output_per_mtok: 2 },
    total: '0.0001234',
    pico: 123_400_000n,
    source: 'provider',
    lines: [['provider_reported', 1, '0.0001234', '0.0001234']],
    computed: '0.0002',
  },
  {
    name: 'openrouter: provider cost without catalogue pricing',
    usage: { input_tokens: 100, provider_cost_usd: 0.0001234 },
    pricing: null,
    total: '0.0001234',
    source: 'provider',
    computed: null,
  },
  {
    name: 'openrouter: free model reports 0',
    usage: { input_tokens: 100, provider_cost_usd: 0 },
    pricing: undefined,
    total: '0',
    pico: 0n,
    source: 'provider',
    computed: null,
  },
  {
    name: 'openrouter: float noise below a picodollar is rounded away in the total only',
    usage: { provider_cost_usd: 0.1 + 0.2 },
    pricing: null,
    total: '0.3',
    source: 'provider',
    lines: [['provider_reported', 1, '0.30000000000000004', '0.30000000000000004']],
    computed: null,
  },
  {
    name: 'provider cost NaN is ignored, catalogue used, noted',
    usage: { input_tokens: 1000, provider_cost_usd: Number.NaN },
    pricing: GPT_4O,
    total: '0.0025',
    notes: ['provider_cost_usd NaN ignored (not a finite number: NaN); catalogue price used'],
  },
  {
    name: 'negative provider cost is ignored',
    usage: { input_tokens: 1000, provider_cost_usd: -0.5 },
    pricing: GPT_4O,
    total: '0.0025',
    notes: ['provider_cost_usd -0.5 ignored (negative); catalogue price used'],
  },

  // --- Per-unit pricing ---
  {
    name: 'per request and per image (in and out) on top of tokens',
    usage: { input_tokens: 100 },
    pricing: IMAGE_MODEL,
    opts: { units: { images_in: 2, images_out: 3 } },
    total: '0.6452',
    lines: [
      ['input', 100, '2', '0.0002'],
      ['request', 1, '0.005', '0.005'],
      ['image_in', 2, '0.02', '0.04'],
      ['image_out', 3, '0.2', '0.6'],
    ],
  },
  {
    name: 'per_request x units.requests',
    usage: {},
    pricing: { per_request: 0.01, input_per_mtok: 1 },
    opts: { units: { requests: 3 } },
    total: '0.03',
    lines: [['request', 3, '0.01', '0.03']],
  },
  {
    name: 'transcription per second, fractional seconds',
    usage: {},
    pricing: { per_second_input: 0.0001 },
    opts: { units: { seconds_in: 90.5 } },
    total: '0.00905',
    lines: [['second_in', 90.5, '0.0001', '0.00905']],
  },
  {
    name: 'tts per character',
    usage: {},
    pricing: { per_character_input: 0.000015 },
    opts: { units: { characters_in: 1000 } },
    total: '0.015',
  },
  {
    name: 'ocr per page',
    usage: {},
    pricing: { per_page: 0.001 },
    opts: { units: { pages: 12 } },
    total: '0.012',
  },
  {
    name: 'video per output second plus an input image',
    usage: {},
    pricing: { input_per_image: 0.02, per_second_input: 0.1, per_second_output: 0.5 },
    opts: { units: { images_in: 1, seconds_in: 0, seconds_out: 8 } },
    total: '4.02',
    lines: [
      ['image_in', 1, '0.02', '0.02'],
      ['second_out', 8, '0.5', '4'],
    ],
  },
  {
    name: 'images without a per-image rate are assumed billed as tokens, noted',
    usage: { input_tokens: 1000 },
    pricing: GPT_4O,
    opts: { units: { images_in: 2 } },
    total: '0.0025',
    notes: ['units.images_in 2 has no input_per_image rate; assumed priced as tokens'],
  },
  {
    name: 'a per-unit rate whose quantity was not measured is noted when tokens were charged',
    usage: { input_tokens: 1000 },
    pricing: { input_per_mtok: 2.5, input_per_image: 0.01 },
    total: '0.0025',
    notes: ['input_per_image not applied: units.images_in not measured'],
  },
  {
    name: 'output_image_per_mtok cannot apply (no image token count), noted',
    usage: { input_tokens: 10, output_tokens: 1000 },
    pricing: { input_per_mtok: 5, output_per_mtok: 10, output_image_per_mtok: 40 },
    total: '0.01005',
    notes: ['output_image_per_mtok not applied: usage has no image output token count'],
  },

  // --- Floating-point traps ---
  { name: '0.075 x 3 tokens', usage: { input_tokens: 3 }, pricing: { input_per_mtok: 0.075 }, total: '0.000000225', pico: 225_000n },
  { name: '0.075 x 1 token', usage: { input_tokens: 1 }, pricing: { input_per_mtok: 0.075 }, total: '0.000000075', pico: 75_000n },
  { name: '1 token at 0.000001/MTok is one picodollar', usage: { input_tokens: 1 }, pricing: { input_per_mtok: 0.000001 }, total: '0.000000000001', pico: 1n },
  { name: '1e-7/MTok x 10M tokens', usage: { output_tokens: 10_000_000 }, pricing: { output_per_mtok: 1e-7 }, total: '0.000001', pico: 1_000_000n },
  {
    name: '1e-7/MTok x 1 token: exact line, total rounds to 0 picodollars',
    usage: { input_tokens: 1 },
    pricing: { input_per_mtok: 1e-7 },
    total: '0',
    pico: 0n,
    lines: [['input', 1, '0.0000001', '0.0000000000001']],
  },
  { name: '1e-7 per character x 3', usage: {}, pricing: { per_character_input: 1e-7 }, opts: { units: { characters_in: 3 } }, total: '0.0000003' },
  { name: '0.1 + 0.2 is 0.3', usage: { input_tokens: 1_000_000, output_tokens: 1_000_000 }, pricing: { input_per_mtok: 0.1, output_per_mtok: 0.2 }, total: '0.3' },
  { name: '3.3 x 3 tokens (9.899999999999999 in floats)', usage: { input_tokens: 3 }, pricing: { input_per_mtok: 3.3 }, total: '0.0000099' },
  {
    name: 'rounded once: two half-picodollar lines make one picodollar',
    usage: { input_tokens: 1, output_tokens: 1 },
    pricing: { input_per_mtok: 0.0000005, output_per_mtok: 0.0000005 },
    total: '0.000000000001',
    pico: 1n,
  },
  {
    name: 'rounded once: two 0.4-picodollar lines make one picodollar, not zero',
    usage: { input_tokens: 1, output_tokens: 1 },
    pricing: { input_per_mtok: 0.0000004, output_per_mtok: 0.0000004 },
    total: '0.000000000001',
  },
  { name: 'half-up: 2.5 picodollars -> 3', usage: { input_tokens: 1 }, pricing: { input_per_mtok: 0.0000025 }, total: '0.000000000003', pico: 3n },
  { name: 'large: 1e9 tokens at 15', usage: { output_tokens: 1_000_000_000 }, pricing: { output_per_mtok: 15 }, total: '15000', pico: 15_000_000_000_000_000n },
  { name: 'rate in exponent form: 2.5e-5 x 4 tokens', usage: { input_tokens: 4 }, pricing: { input_per_mtok: 2.5e-5 }, total: '0.0000000001' },

  // --- Unknown: never a silent 0 ---
  { name: 'pricing null', usage: { input_tokens: 10 }, pricing: null, total: null, reason: 'no pricing for model' },
  { name: 'pricing undefined', usage: { input_tokens: 10 }, pricing: undefined, total: null, reason: 'no pricing for model' },
  { name: 'pricing null even with no tokens', usage: {}, pricing: null, total: null, reason: 'no pricing for model' },
  { name: 'empty pricing object', usage: {}, pricing: {}, total: null, reason: 'pricing has no rates' },
  {
    name: 'non-USD currency',
    usage: { input_tokens: 10 },
    pricing: { currency: 'EUR', input_per_mtok: 1 },
    total: null,
    reason: 'pricing currency is EUR, not USD (no FX conversion)',
  },
  { name: 'currency usd, any case', usage: { input_tokens: 10 }, pricing: { currency: 'usd', input_per_mtok: 1 }, total: '0.00001' },
  { name: 'output tokens with no output rate', usage: { input_tokens: 10, output_tokens: 5 }, pricing: { input_per_mtok: 1 }, total: null, reason: 'no rate for output' },
  {
    name: 'cached tokens with neither a cached nor an input rate',
    usage: { input_tokens: 10, cached_input_tokens: 10 },
    pricing: { output_per_mtok: 1 },
    total: null,
    reason: 'no rate for cached_input',
  },
  {
    name: 'every missing kind is named',
    usage: { input_tokens: 10, output_tokens: 5, reasoning_tokens: 2 },
    pricing: { per_request: 0.01 },
    total: null,
    reason: 'no rate for input, output, reasoning_output',
  },
  { name: 'zero tokens of a kind need no rate', usage: { input_tokens: 10 }, pricing: { input_per_mtok: 1 }, total: '0.00001' },
  {
    name: 'reasoning rate alone prices all-reasoning output',
    usage: { output_tokens: 10, reasoning_tokens: 10 },
    pricing: { input_per_mtok: 1, reasoning_output_per_mtok: 5 },
    total: '0.00005',
  },
  { name: 'explicitly free model', usage: { input_tokens: 10, output_tokens: 10 }, pricing: { input_per_mtok: 0, output_per_mtok: 0 }, total: '0', pico: 0n },
  { name: 'negative rate', usage: { input_tokens: 10 }, pricing: { input_per_mtok: -1 }, total: null, reason: 'invalid input_per_mtok: negative rate: -1' },
  {
    name: 'malformed time window',
    usage: { input_tokens: 10 },
    pricing: { input_per_mtok: 1, time_windows: [{ utc_ranges: [{ start: '4pm', end: '00:30' }], pricing: {} }] },
    total: null,
    reason: 'invalid time_windows: invalid UTC time "4pm" (expected "HH:MM")',
  },
  {
    name: 'invalid date with time windows',
    usage: { input_tokens: 10 },
    pricing: DEEPSEEK_CHAT,
    opts: { at: new Date('not a date') },
    total: null,
    reason: 'invalid time_windows: invalid date for time-window pricing',
  },
  { name: 'NaN token count', usage: { output_tokens: Number.NaN }, pricing: GPT_4O, total: null, reason: 'invalid usage output_tokens: NaN' },
  { name: 'fractional token count', usage: { input_tokens: 1.5 }, pricing: GPT_4O, total: null, reason: 'invalid usage input_tokens: 1.5' },
  {
    name: 'negative unit count',
    usage: {},
    pricing: IMAGE_MODEL,
    opts: { units: { images_in: -1 } },
    total: null,
    reason: 'invalid units.images_in: -1',
  },
  {
    name: 'per-unit model with the quantity not measured',
    usage: {},
    pricing: { per_character_input: 0.000015 },
    total: null,
    reason: 'per-unit usage not measured: per_character_input (units.characters_in)',
    notes: ['per_character_input not applied: units.characters_in not measured'],
  },
  {
    name: 'a negative tier rate names its tier',
    usage: { input_tokens: 10 },
    pricing: { tiers: [{ input_per_mtok: -2 }] },
    total: null,
    reason: 'invalid tiers[0].input_per_mtok: negative rate: -2',
  },
  {
    name: 'a negative tier bound',
    usage: { input_tokens: 10 },
    pricing: { input_per_mtok: 1, tiers: [{ up_to_tokens: -1, input_per_mtok: 2 }] },
    total: null,
    reason: 'invalid tiers: negative tier bound: -1',
  },

  // --- Inconsistent provider numbers: clamp and note ---
  {
    name: 'cached tokens above input_tokens: plain input 0, cached charged in full',
    usage: { input_tokens: 100, cached_input_tokens: 150 },
    pricing: GPT_4O,
    total: '0.0001875',
    lines: [['cached_input', 150, '1.25', '0.0001875']],
    notes: ['input_tokens 100 is less than cached_input + cache_write + audio_input 150; the remainder is counted as 0'],
  },
  {
    name: 'reasoning above output_tokens',
    usage: { output_tokens: 10, reasoning_tokens: 20 },
    pricing: O3,
    total: '0.00016',
    lines: [['reasoning_output', 20, '8', '0.00016', REASONING_AT_OUTPUT]],
    notes: ['output_tokens 10 is less than reasoning + audio_output 20; the remainder is counted as 0'],
  },
  {
    name: '1-hour cache writes at their own rate, 5-minute ones at cache_write',
    usage: WRITES_1H,
    pricing: SONNET_1H,
    // 1000 x 3 + 6000 x 0.3 + 2000 x 3.75 + 1000 x 6 + 500 x 15 = 0.003 + 0.0018 + 0.0075 + 0.006 + 0.0075
    total: '0.0258',
    lines: [
      ['input', 1000, '3', '0.003'],
      ['cached_input', 6000, '0.3', '0.0018'],
      ['cache_write', 2000, '3.75', '0.0075'],
      ['cache_write_1h', 1000, '6', '0.006'],
      ['output', 500, '15', '0.0075'],
    ],
  },
  {
    name: '1-hour cache writes without a rate of their own: the 5-minute rate, and the line says so',
    usage: WRITES_1H,
    pricing: SONNET,
    // the 1000 1-hour writes at 3.75: 0.003 + 0.0018 + 0.0075 + 0.00375 + 0.0075
    total: '0.02355',
    lines: [
      ['input', 1000, '3', '0.003'],
      ['cached_input', 6000, '0.3', '0.0018'],
      ['cache_write', 2000, '3.75', '0.0075'],
      ['cache_write_1h', 1000, '3.75', '0.00375', 'no cache_write_1h rate; charged at the cache_write rate'],
      ['output', 500, '15', '0.0075'],
    ],
  },
  {
    name: 'web searches at the per-search fee',
    usage: { input_tokens: 1000, output_tokens: 100, web_search_requests: 3 },
    pricing: SONNET_1H,
    // 1000 x 3 / 1e6 + 100 x 15 / 1e6 + 3 x 0.01
    total: '0.0345',
    lines: [
      ['input', 1000, '3', '0.003'],
      ['output', 100, '15', '0.0015'],
      ['web_search', 3, '0.01', '0.03'],
    ],
  },
  {
    name: 'web searches with no fee in the pricing make the price unknown',
    usage: { input_tokens: 1000, output_tokens: 100, web_search_requests: 2 },
    pricing: SONNET,
    total: null,
    reason: 'no rate for web_search',
  },
  {
    name: "a service tier's rates replace the base ones",
    usage: { input_tokens: 1000, cached_input_tokens: 500, output_tokens: 100 },
    pricing: GPT_5,
    opts: { serviceTier: 'flex' },
    // 500 x 0.625 + 500 x 0.0625 + 100 x 5 = 0.0003125 + 0.00003125 + 0.0005
    total: '0.00084375',
    service_tier: 'flex',
  },
  {
    name: 'a service tier the pricing has no rates for: standard rates, noted',
    usage: { input_tokens: 1000, cached_input_tokens: 500, output_tokens: 100 },
    pricing: GPT_5,
    opts: { serviceTier: 'priority' },
    // 500 x 1.25 + 500 x 0.125 + 100 x 10 = 0.000625 + 0.0000625 + 0.001
    total: '0.0016875',
    service_tier: 'priority',
    notes: ["service tier 'priority' has no rates in the pricing; standard rates used"],
  },
  {
    name: 'the standard tier under any of its names changes nothing',
    usage: { input_tokens: 1000, cached_input_tokens: 500, output_tokens: 100 },
    pricing: GPT_5,
    opts: { serviceTier: 'default' },
    total: '0.0016875',
    service_tier: 'default',
  },
  {
    name: 'the batch service tier takes the batch rates',
    usage: { input_tokens: 1000, output_tokens: 100 },
    pricing: GPT_4O_MINI,
    opts: { serviceTier: 'batch' },
    // 1000 x 0.075 + 100 x 0.3
    total: '0.000105',
    service_tier: 'batch',
  },
  {
    name: 'negative count is counted as 0',
    usage: { input_tokens: 1000, cached_input_tokens: -5 },
    pricing: GPT_4O,
    total: '0.0025',
    notes: ['usage cached_input_tokens was -5; counted as 0'],
  },
];

describe('pricing/calculateCost', () => {
  for (const c of cases) {
    it(c.name, () => {
      const cost = calculateCost(usage(c.usage), c.pricing, { at: NOON_MONDAY, ...c.opts });
      expect(cost.total_usd, 'total_usd').to.equal(c.total);
      expect(cost.pico_usd, 'pico_usd').to.equal(c.total === null ? null : (c.pico ?? cost.pico_usd));
      if (cost.pico_usd !== null) expect(formatUsd(cost.pico_usd), 'pico_usd matches total_usd').to.equal(c.total);
      expect(cost.source, 'source').to.equal(c.source ?? (c.total === null ? 'unknown' : 'computed'));
      expect(cost.unknown_reason, 'unknown_reason').to.equal(c.reason);
      expect(cost.tier, 'tier').to.equal(c.tier);
      expect(cost.window, 'window').to.equal(c.window);
      expect(cost.service_tier, 'service_tier').to.equal(c.service_tier);
      expect(cost.notes, 'notes').to.deep.equal(c.notes);
      expect(cost.computed_usd, 'computed_usd').to.equal(c.computed);
      if (c.total === null) expect(cost.lines).to.deep.equal([]);
      if (c.lines !== undefined) {
        const lines = cost.lines.map((l): Line => (l.note === undefined ? [l.item, l.quantity, l.rate_usd, l.amount_usd] : [l.item, l.quantity, l.rate_usd, l.amount_usd, l.note]));
        expect(lines).to.deep.equal(c.lines);
      }
    });
  }

  it('is pure: same input, same output, inputs untouched', () => {
    const counts = usage({ input_tokens: 10_000, cached_input_tokens: 6000, cache_write_tokens: 3000, output_tokens: 500 });
    const before = JSON.stringify({ counts, SONNET });
    const first = calculateCost(counts, SONNET, { at: NOON_MONDAY });
    expect(calculateCost(counts, SONNET, { at: NOON_MONDAY })).to.deep.equal(first);
    expect(JSON.stringify({ counts, SONNET })).to.equal(before);
  });
});
