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
          { provider: 'a', model: 'x', status: 502, error: 'upstream failed', duration_ms: 1.5, queued_ms: 0 },
          { provider: 'b', model: 'y', status: 200, error: null, duration_ms: 2.25, queued_ms: 12.5 },
        ],
        request_body: 'héllo "world"',
        response_body: '',
      }),
    ];
    for (const entry of entries) expect(entryOf(recordFromEntry(entry))).to.deep.equal(entry);
  });

  it('stores the usual cost breakdown positionally and gives back the same JSON; any other cost as it is', () => {
    const line = (item: string, quantity: number, rate: string, amount: string): Record<string, unknown> => ({ item, quantity, rate_usd: rate, amount_usd: amount });
    const usual = { total_usd: '0.00001215', source: 'computed', pico_usd: '12150000', lines: [line('input', 41, '0.15', '0.00000615'), line('output', 10, '0.6', '0.000006')] };
    const noted = { ...usual, lines: [{ ...line('cached_input', 5, '0.15', '0.00000075'), note: 'no cached rate: input rate' }] };
    const costs: Array<{ cost: Record<string, unknown> | null; positional: boolean }> = [
      { cost: usual, positional: true },
      { cost: noted, positional: true },
      { cost: { total_usd: '0', source: 'no_charge', pico_usd: '0', lines: [] }, positional: true },
      { cost: null, positional: false },
      // Other shapes: more fields, another order, a line of its own shape, a value JSON leaves out.
      { cost: { ...usual, tier: '>128k', window: 'night' }, positional: false },
      { cost: { total_usd: null, source: 'unknown', pico_usd: null, unknown_reason: 'no usage', lines: [] }, positional: false },
      { cost: { ...usual, lines: [{ ...line('input', 1, '1', '1'), extra: true }] }, positional: false },
      { cost: { ...usual, lines: [{ ...line('input', 1, '1', '1'), note: undefined }] }, positional: false },
      { cost: { source: 'computed', total_usd: '1', pico_usd: '1000000000000', lines: [] }, positional: false },
    ];
    for (const { cost, positional } of costs) {
      const entry = syntheticEntry({ id: 'c1', ts: T0, cost: cost as AuditEntry['cost'] });
      const record = recordFromEntry(entry);
      const stored = (JSON.parse(record.detail) as unknown[])[19];
      expect(Array.isArray(stored), JSON.stringify(cost)).to.equal(positional);
      const back = entryOf(record);
      expect(JSON.stringify(back.cost)).to.equal(JSON.stringify(cost));
      expect(back).to.deep.equal(JSON.parse(JSON.stringify(entry)));
    }
  });

  it('reads a record written with the cost as an object', () => {
    const entry = syntheticEntry({ id: 'old', ts: T0 });
    const record = recordFromEntry(entry);
    const detail = JSON.parse(record.detail) as unknown[];
    detail[19] = entry.cost;
    expect(entryOf({ ...record, detail: JSON.stringify(detail) })).to.deep.equal(entry);
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
