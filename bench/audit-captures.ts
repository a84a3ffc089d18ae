// Finished requests for the audit write benchmark: real RequestContexts filled the way the
// gateway fills them for the benchmark's workloads (wrk's or an openai SDK client's headers,
// the chat request body, the mock's 638-byte answer forwarded as bytes or a stream reassembled
// into an object, usage with the provider's raw object, a cost priced by the pricing plugin,
// one attempt), ready for the audit plugin's log tap.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../core/context.js';
import { providerFailed } from '../core/errors.js';
import type { Provider, Target } from '../core/provider.js';
import type { RouteSpec } from '../core/routes.js';
import { chatStreamFormat } from '../core/stream/chat-format.js';
import type { Pricing } from '../core/types/pricing.js';
import { emptyUsage } from '../core/types/usage.js';
import { calculateCost } from '../plugins/pricing/calculate.js';
import { toCostResult } from '../plugins/pricing/index.js';
import { chatRequestBody } from './workloads.js';

export interface CaptureMix {
  /** Share of streamed calls (their response body is an object, serialised at flush time). */
  streamShare: number;
  /** Labels per entry: 0, or team, env and (70% of entries) user. */
  labels: boolean;
  /** The request headers: what wrk sends in the benchmark (4), or an openai SDK client (15). */
  client: 'wrk' | 'sdk';
}

const ROUTE: RouteSpec = { method: 'POST', path: '/v1/chat/completions', access: 'client', operation: 'chat', body: 'json', streamFormat: chatStreamFormat, handler: null };
const PROVIDER = { name: 'openai', type: 'openai', operations: {} } as unknown as Provider;
const PRICING = { currency: 'USD', input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075 } as Pricing;
const MODELS = Array.from({ length: 20 }, (_, i): Target => ({ provider: PROVIDER, model: `gpt-4o-mini-${i}`, id: `openai/gpt-4o-mini-${i}`, metadata: { pricing: PRICING } }) as unknown as Target);
const KEYS = Array.from({ length: 50 }, (_, i) => ({ id: `key_${i}`, name: `team key ${i}`, kind: 'key' as const, admin: false, labels: {}, allowedModels: null }));
const TEAMS = ['ml', 'web', 'data', 'infra', 'search', 'ads', 'mobile', 'support'];
const ENVS = ['prod', 'staging', 'dev'];

// What bench/wrk.ts sends.
const WRK_HEADERS = {
  host: '127.0.0.1:8080',
  'content-type': 'application/json',
  authorization: 'Bearer sk-bench-master',
  'content-length': '330',
};

// What the openai SDK sends (Node), as node:http hands it over.
const SDK_HEADERS = {
  host: '127.0.0.1:8080',
  connection: 'keep-alive',
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer sk-bench-master',
  'user-agent': 'OpenAI/JS 6.49.0',
  'x-stainless-lang': 'js',
  'x-stainless-package-version': '6.49.0',
  'x-stainless-os': 'Linux',
  'x-stainless-arch': 'x64',
  'x-stainless-runtime': 'node',
  'x-stainless-runtime-version': 'v20.20.0',
  'x-stainless-retry-count': '0',
  'x-stainless-timeout': '600',
  'content-length': '330',
};

const RAW_USAGE = {
  prompt_tokens: 41,
  completion_tokens: 10,
  total_tokens: 51,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

// bench/mock-provider.ts's answer.
const ANSWER = {
  id: 'chatcmpl-BenchMock0000000000000000000',
  object: 'chat.completion',
  created: 1769092737,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'A gateway routes, meters and secures model calls.', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
  usage: RAW_USAGE,
  service_tier: 'default',
  system_fingerprint: 'fp_29330a9688',
};
const ANSWER_BYTES = Buffer.from(JSON.stringify(ANSWER));
const ANSWER_TEXT = ANSWER_BYTES.toString();
const RAW_USAGE_TEXT = JSON.stringify(RAW_USAGE);

/** A deterministic PRNG: every run captures the same entries. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

export class CaptureSource {
  readonly #mix: CaptureMix;
  readonly #random = prng(20251122);
  readonly #requestBodies = [chatRequestBody('openai/gpt-4o-mini', false), chatRequestBody('openai/gpt-4o-mini', true)].map((b) => Buffer.from(b));

  constructor(mix: CaptureMix) {
    this.#mix = mix;
  }

  /** One finished request, as the log stage sees it. */
  next(): RequestContext {
    const random = this.#random;
    const stream = random() < this.#mix.streamShare;
    const failed = random() < 0.03;
    // A copy each: node builds a headers object per request.
    const headers = { ...(this.#mix.client === 'wrk' ? WRK_HEADERS : SDK_HEADERS) };
    const req = { method: 'POST', url: ROUTE.path, headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    const ctx = new RequestContext(req, {} as ServerResponse, ROUTE, {}, ROUTE.path);
    const target = MODELS[Math.floor(random() * random() * MODELS.length)]!;
    ctx.principal = KEYS[Math.floor(random() * random() * KEYS.length)]!;
    ctx.model = target.id;
    ctx.target = target;
    ctx.stream = stream;
    ctx.rawBody = this.#requestBodies[stream ? 1 : 0]!;
    if (this.#mix.labels) {
      const labels: Record<string, string> = { team: TEAMS[Math.floor(random() * TEAMS.length)]!, env: ENVS[Math.floor(random() * ENVS.length)]! };
      if (random() < 0.7) labels['user'] = `user${Math.floor(random() * random() * 200)}@example.com`;
      ctx.labels = labels;
    }
    ctx.durationMs = 2 + random() * 40;
    ctx.firstByteMs = 1 + random();
    if (failed) {
      ctx.error = providerFailed('openai', 'upstream failed');
      ctx.status = 502;
      ctx.attempts.push({ provider: 'openai', model: target.model, status: 502, error: 'upstream failed', duration_ms: 1.25, queued_ms: 0 });
    } else {
      // A stream's answer is the reassembled object (fresh, like the stream reassembler's); a
      // JSON answer is forwarded as its bytes.
      ctx.responseBody = stream ? (JSON.parse(ANSWER_TEXT) as unknown) : ANSWER_BYTES;
      ctx.status = 200;
      const usage = emptyUsage();
      usage.input_tokens = 41;
      usage.output_tokens = 10;
      usage.total_tokens = 51;
      // Parsed from the answer's bytes, as the provider plugins do.
      usage.raw = JSON.parse(RAW_USAGE_TEXT) as unknown;
      ctx.usage = usage;
      ctx.attempts.push({ provider: 'openai', model: target.model, status: 200, error: null, duration_ms: ctx.durationMs - 0.5, queued_ms: 0 });
    }
    ctx.cost = ctx.usage === null ? null : toCostResult(calculateCost(ctx.usage, PRICING, { at: new Date(ctx.startedAt) }));
    return ctx;
  }
}
