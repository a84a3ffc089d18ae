// Made-up but realistic audit entries, for the store's tests and the usage benchmark.
import type { AuditEntry } from '../audit-entry.js';

/** A complete entry; `init` overrides any field. Cost follows demo/echo prices unless given. */
export function syntheticEntry(init: Partial<AuditEntry> & Pick<AuditEntry, 'id' | 'ts'>): AuditEntry {
  const input = init.input_tokens ?? 42;
  const output = init.output_tokens ?? 17;
  // demo/echo: $0.15 and $0.60 per million tokens, i.e. 150,000 and 600,000 picodollars per token.
  const pico = init.cost_pico !== undefined ? init.cost_pico : input * 150_000 + output * 600_000;
  const model = init.model !== undefined ? init.model : 'demo/echo';
  const provider = init.provider !== undefined ? init.provider : 'demo';
  const costUsd = pico === null ? null : (Number(pico) / 1e12).toFixed(12).replace(/\.?0+$/, '');
  const prompt = `Tell me about entry ${init.id}`;
  return {
    time: new Date(init.ts).toISOString(),
    duration_ms: 123.456,
    ttfb_ms: 45.5,
    method: 'POST',
    route: '/v1/chat/completions',
    operation: 'chat',
    model,
    resolved_model: model,
    provider_model: model === null ? null : model.slice(model.indexOf('/') + 1),
    provider,
    status: 200,
    stream: false,
    key_id: 'key_1',
    key_name: 'team one',
    labels: {},
    client_ip: '127.0.0.1',
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    cost_usd: costUsd,
    cost_pico: pico,
    cost_source: pico === null ? 'unknown' : 'computed',
    cache_hit: false,
    error: null,
    trace_id: null,
    request_headers: { 'content-type': 'application/json', authorization: '[redacted]', 'user-agent': 'OpenAI/JS 6.49.0' },
    request_body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }] }),
    request_body_truncated: false,
    response_body: JSON.stringify({ id: `chatcmpl-${init.id}`, object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: prompt }, finish_reason: 'stop' }] }),
    response_body_truncated: false,
    usage: {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      cached_input_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      audio_input_tokens: 0,
      audio_output_tokens: 0,
    },
    cost: pico === null ? null : { total_usd: costUsd, source: 'computed', pico_usd: String(pico), lines: [] },
    attempts: provider === null ? [] : [{ provider, model: model ?? '', status: 200, error: null, duration_ms: 120.5, queued_ms: 0 }],
    ...init,
  };
}
