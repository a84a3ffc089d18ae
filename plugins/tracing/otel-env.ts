// The standard OpenTelemetry variables, read from the environment the config was loaded with
// (not process.env: tests and embedders give their own): where to export, the service's name,
// and the sampler. https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import type { Sampler } from '@opentelemetry/sdk-trace-node';
import { StartupError } from '../../core/config-error.js';

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const DEFAULT_TIMEOUT_MS = 10_000;

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces` appended. */
export function tracesEndpoint(env: Env): string {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (traces) return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'] || DEFAULT_ENDPOINT;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS: `name=value,name2=value2`, values percent-encoded. */
export function exportHeaders(env: Env): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of [env['OTEL_EXPORTER_OTLP_HEADERS'], env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']]) {
    for (const pair of (text ?? '').split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) headers[pair.slice(0, eq).trim()] = decodeURIComponent(pair.slice(eq + 1).trim());
    }
  }
  return headers;
}

/** OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, else OTEL_EXPORTER_OTLP_TIMEOUT: milliseconds an export may take, retries included. */
export function exportTimeoutMs(env: Env): number {
  const name = env['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT'] ? 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TIMEOUT';
  const text = env[name];
  if (!text) return DEFAULT_TIMEOUT_MS;
  const ms = Number(text);
  if (!(Number.isInteger(ms) && ms > 0)) throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${name}: must be a whole number of milliseconds above 0, got '${text}'`);
  return ms;
}

export function serviceName(env: Env): string {
  return env['OTEL_SERVICE_NAME'] || 'sluice';
}

/** OTEL_TRACES_SAMPLER (default parentbased_always_on) and its OTEL_TRACES_SAMPLER_ARG ratio. */
export function sampler(env: Env): Sampler {
  const name = env['OTEL_TRACES_SAMPLER'] || 'parentbased_always_on';
  const ratio = (): number => {
    const arg = env['OTEL_TRACES_SAMPLER_ARG'];
    const value = arg === undefined || arg === '' ? 1 : Number(arg);
    if (!(value >= 0 && value <= 1)) throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `OTEL_TRACES_SAMPLER_ARG: must be a ratio from 0 to 1, got '${arg}'`);
    return value;
  };
  switch (name) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_on': return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `OTEL_TRACES_SAMPLER: '${name}' is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio`);
  }
}

export interface BatchLimits {
  /** OTEL_BSP_SCHEDULE_DELAY: ms a batch waits for more spans before it is sent. */
  scheduledDelayMs: number;
  /** OTEL_BSP_MAX_QUEUE_SIZE: spans waiting for an export at most; later ones are dropped. */
  maxQueueSize: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans in one export at most. */
  maxExportBatchSize: number;
}

/** The OTEL_BSP_* limits of the batch span processor, with the specification's defaults. */
export function batchLimits(env: Env): BatchLimits {
  const whole = (name: string, fallback: number): number => {
    const text = env[name];
    if (!text) return fallback;
    const value = Number(text);
    if (!(Number.isInteger(value) && value > 0)) throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${name}: must be a whole number above 0, got '${text}'`);
    return value;
  };
  const maxQueueSize = whole('OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  // As the SDK does: a batch never holds more than the queue.
  const maxExportBatchSize = Math.min(whole('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512), maxQueueSize);
  return { scheduledDelayMs: whole('OTEL_BSP_SCHEDULE_DELAY', 5000), maxQueueSize, maxExportBatchSize };
}
