import { expect } from 'chai';
import type { AuditEntry } from './entry.js';
import { entryOf, recordFromEntry } from './entry-record.js';
import { REDACTED, redactHeaders, stringifyRedacting } from './redact.js';
import { syntheticEntry } from './synthetic-entry.js';

const T0 = Date.UTC(2025, 2, 10);

describe('audit entry record', () => {
  it('turns a whole entry into a record and back without loss', () => {
    const entries: AuditEntry[] = [
      syntheticEntry({ id: 'r1', ts: T0, labels: { team: 'ml', env: ['prod', 'eu'] } }),
      // No usage, no cost, an error, no bodies.
      syntheticEntry({
        id: 'r2',
        ts: T0 + 1,
        usage: null,
        cost: null,
        cost_pico: null,
        cost_usd: null,
        cost_source: null,
        attempts: [],
        request_body: null,
        response_body: null,
        error: { type: 'not_found_error', code: 'model_not_found', message: 'model "x" \\ does not exist\n', status: 404, provider: null },
      }),
      // A raw usage that is null is kept as null; a provider's own cost is kept.
      syntheticEntry({
        id: 'r3',
        ts: T0 + 2,
        usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3, cached_input_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 1, audio_input_tokens: 0, audio_output_tokens: 0, provider_cost_usd: 0.25, raw: null },
        attempts: [
          { provider: 'a', model: 'x', status: 502, error: 'upstream failed', duration_ms: 1.5 },
          { provider: 'b', model: 'y', status: 200, error: null, duration_ms: 2.25 },
        ],
        request_body: 'héllo "world"',
        response_body: '',
      }),
    ];
    for (const entry of entries) expect(entryOf(recordFromEntry(entry))).to.deep.equal(entry);
  });

  it('redacts credentials while serialising, without copying or changing the headers', () => {
    const headers = { authorization: 'Bearer sk-1', 'x-api-key': 'k', 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json', accept: undefined };
    const json = stringifyRedacting(headers, { h: headers });
    expect(JSON.parse(json)).to.deep.equal({ h: redactHeaders(headers) });
    expect(JSON.parse(json).h.authorization).to.equal(REDACTED);
    expect(headers).to.deep.equal({ authorization: 'Bearer sk-1', 'x-api-key': 'k', 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json', accept: undefined });
  });

  it('puts the headers back even when serialising throws', () => {
    const headers = { authorization: 'Bearer sk-1' };
    const cyclic: Record<string, unknown> = { h: headers };
    cyclic['self'] = cyclic;
    expect(() => stringifyRedacting(headers, cyclic)).to.throw(TypeError);
    expect(headers.authorization).to.equal('Bearer sk-1');
  });
});
