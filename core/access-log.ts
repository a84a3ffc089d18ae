// The optional access log (`log.access: true`): one line per finished model request. The log
// stage only copies a few fields; the lines are written a turn of the event loop later, in a
// batch, so no response waits on winston. Nothing from headers or bodies goes in: no credential.
import type { RequestContext } from './context.js';
import type { Logger } from './logger.js';

interface AccessRecord {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number | null;
  ttfb_ms: number | null;
  provider: string | null;
  model: string | null;
  key_id: string | null;
  stream: boolean;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: string | null;
}

export class AccessLog {
  readonly #logger: Logger;
  #pending: AccessRecord[] = [];
  readonly #flush = (): void => {
    const batch = this.#pending;
    this.#pending = [];
    for (const r of batch) this.#logger.info(`${r.method} ${r.path} ${r.status} ${r.duration_ms ?? '-'}ms`, r);
  };

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  record(ctx: RequestContext): void {
    if (this.#pending.length === 0) setImmediate(this.#flush);
    const usage = ctx.usage;
    this.#pending.push({
      request_id: ctx.id,
      method: ctx.req.method ?? '',
      path: ctx.path,
      status: ctx.status,
      duration_ms: roundMs(ctx.durationMs),
      ttfb_ms: roundMs(ctx.firstByteMs),
      provider: ctx.target?.provider.name ?? null,
      model: ctx.model,
      key_id: ctx.principal?.id ?? null,
      stream: ctx.stream,
      input_tokens: usage?.input_tokens ?? null,
      output_tokens: usage?.output_tokens ?? null,
      cost_usd: ctx.cost?.total_usd ?? null,
    });
  }
}

function roundMs(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}
