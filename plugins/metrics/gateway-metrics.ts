// The gateway's request metrics, named by Prometheus conventions (base units, `_total` for
// counters), on a registry of their own: one gateway, one set of series. What every request adds
// to is a series metric (series.ts); what few requests touch stays prom-client's own.
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from './series.js';

/** Seconds, for LLM latencies: from a cached answer (5 ms) to a long reasoning call (5 min). */
export const LATENCY_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

export interface GatewayMetrics {
  requests: SeriesCounter;
  requestDuration: SeriesHistogram;
  timeToFirstToken: SeriesHistogram;
  upstreamDuration: SeriesHistogram;
  providerAttempts: SeriesCounter;
  failovers: Counter<string>;
  tokens: SeriesCounter;
  cost: SeriesCounter;
  inFlight: Gauge<string>;
  streamsInFlight: Gauge<string>;
  cache: Counter<string>;
  rejections: Counter<string>;
}

/** `attribution`: the opted-in label names (key, request labels) added to requests, tokens and cost. */
export function createGatewayMetrics(registry: Registry, attribution: readonly string[]): GatewayMetrics {
  const registers = [registry];
  const byModel = ['provider', 'model'];
  const latency = (name: string, help: string, labelNames: string[]) => new SeriesHistogram(name, help, labelNames, LATENCY_BUCKETS, registry);
  return {
    requests: new SeriesCounter(
      'sluice_requests_total',
      'Model requests finished, by route, provider, model and status class (2xx, 4xx, 5xx; a client gone first is 4xx).',
      ['route', 'provider', 'model', 'status_class', ...attribution],
      registry,
    ),
    requestDuration: latency('sluice_request_duration_seconds', 'Time from a model request\'s arrival to the end of its response.', ['route', 'provider', 'model']),
    timeToFirstToken: latency(
      'sluice_time_to_first_token_seconds',
      'Streamed requests: time from arrival to the first byte of the stream sent to the client.',
      ['route', 'provider', 'model'],
    ),
    upstreamDuration: latency(
      'sluice_upstream_duration_seconds',
      'Each provider attempt: time from the call to the provider\'s answer (for a stream, its response head).',
      ['provider', 'status_class'],
    ),
    providerAttempts: new SeriesCounter(
      'sluice_provider_attempts_total',
      'Calls to providers (one per attempt; several for a request that failed over), by status class.',
      ['provider', 'status_class'],
      registry,
    ),
    failovers: new Counter({
      name: 'sluice_failovers_total',
      help: 'Attempts made after a request\'s first one (failover to another target).',
      labelNames: ['route'],
      registers,
    }),
    tokens: new SeriesCounter(
      'sluice_tokens_total',
      'Tokens by type: input, output, cached_input (part of input), reasoning (part of output).',
      [...byModel, 'type', ...attribution],
      registry,
    ),
    cost: new SeriesCounter(
      'sluice_cost_usd_total',
      'Cost of the calls in USD, as priced by the gateway (calls whose price is unknown add nothing).',
      [...byModel, ...attribution],
      registry,
    ),
    inFlight: new Gauge({ name: 'sluice_requests_in_flight', help: 'Model requests being served.', registers }),
    streamsInFlight: new Gauge({ name: 'sluice_streams_in_flight', help: 'Streamed model requests being served.', registers }),
    cache: new Counter({
      name: 'sluice_cache_requests_total',
      help: 'Model requests a response cache looked up, by result (hit, miss); nothing without a cache plugin.',
      labelNames: ['result'],
      registers,
    }),
    rejections: new Counter({
      name: 'sluice_rejections_total',
      help: 'Model requests refused with 429, by reason (rate_limit, budget).',
      labelNames: ['reason'],
      registers,
    }),
  };
}
