import { expect } from 'chai';
import type { GatewayError } from '../../../core/errors.js';
import { parseAuditQuery, parseProvidersQuery, parseUsageQuery } from './params.js';

function rejection(fn: () => unknown): { status: number; param: string | null } {
  try {
    fn();
  } catch (err) {
    const e = err as GatewayError;
    return { status: e.status, param: e.param };
  }
  throw new Error('expected a 400');
}

const q = (text: string): URLSearchParams => new URLSearchParams(text);

describe('audit query parameters', () => {
  it('reads every audit filter', () => {
    expect(parseAuditQuery(q('model=demo/echo&provider=demo&key=k1&label=team:ml&label=env:prod:eu&status=5xx&from=2025-03-01&to=2025-03-02T12:00:00%2B01:00&q=100%25&limit=20&cursor=abc'))).to.deep.equal({
      filter: {
        model: 'demo/echo',
        provider: 'demo',
        key: 'k1',
        labels: [
          { name: 'team', value: 'ml' },
          { name: 'env', value: 'prod:eu' },
        ],
        status: [500, 599],
        from: Date.UTC(2025, 2, 1),
        to: Date.UTC(2025, 2, 2, 11),
        q: '100%',
      },
      cursor: 'abc',
      limit: 20,
    });
    expect(parseAuditQuery(q(''))).to.deep.equal({ filter: {}, cursor: null, limit: 50 });
  });

  it('reads statuses: exact, class, error', () => {
    expect(parseAuditQuery(q('status=404')).filter.status).to.deep.equal([404, 404]);
    expect(parseAuditQuery(q('status=4xx')).filter.status).to.deep.equal([400, 499]);
    expect(parseAuditQuery(q('status=error')).filter.status).to.deep.equal([400, 599]);
  });

  it('takes times without an offset as UTC, and an unencoded + offset too', () => {
    expect(parseAuditQuery(q('from=2025-03-01T10:30')).filter.from).to.equal(Date.UTC(2025, 2, 1, 10, 30));
    expect(parseAuditQuery(q('from=2025-03-01T10:30:00+02:00')).filter.from).to.equal(Date.UTC(2025, 2, 1, 8, 30));
  });

  it('rejects what it cannot read with a 400 naming the parameter', () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['status=teapot', 'status'],
      ['status=600', 'status'],
      ['from=yesterday', 'from'],
      ['to=2025-02-30', 'to'],
      ['from=2025-03-02&to=2025-03-01', 'from'],
      ['label=team', 'label'],
      ['label=:ml', 'label'],
      ['model=a&model=b', 'model'],
      ['provider=', 'provider'],
      ['modle=demo/echo', 'modle'],
      [`q=${'x'.repeat(1001)}`, 'q'],
    ];
    for (const [text, param] of cases) expect(rejection(() => parseAuditQuery(q(text))), text).to.deep.equal({ status: 400, param });
  });

  it('reads usage parameters, defaulting to the last 30 days', () => {
    const now = Date.UTC(2025, 2, 31, 12, 34, 56);
    expect(parseUsageQuery(q('group_by=label:team'), now)).to.deep.equal({ groupBy: 'label:team', bucket: null, from: now - 30 * 86_400_000, to: now });
    expect(parseUsageQuery(q('group_by=key&from=2025-03-01&to=2025-03-02'), now)).to.deep.equal({ groupBy: 'key', bucket: null, from: Date.UTC(2025, 2, 1), to: Date.UTC(2025, 2, 2) });
    for (const [text, param] of [
      ['', 'group_by'],
      ['group_by=team', 'group_by'],
      ['group_by=label:', 'group_by'],
      ['group_by=model&from=2025-03-02&to=2025-03-01', 'from'],
      ['group_by=model&limit=5', 'limit'],
    ] as const) {
      expect(rejection(() => parseUsageQuery(q(text), now)), text).to.deep.equal({ status: 400, param });
    }
  });

  it('reads a bucket, with or without group_by, up to 1000 buckets a call', () => {
    const now = Date.UTC(2025, 2, 31, 12, 34, 56);
    // The default 30 days in hours: 721 buckets, the first and last partial.
    expect(parseUsageQuery(q('bucket=hour'), now)).to.deep.equal({ groupBy: null, bucket: 'hour', from: now - 30 * 86_400_000, to: now });
    expect(parseUsageQuery(q('group_by=model&bucket=day&from=2025-03-01'), now)).to.deep.equal({ groupBy: 'model', bucket: 'day', from: Date.UTC(2025, 2, 1), to: now });
    // Exactly 1000 hours, then one more.
    expect(parseUsageQuery(q('bucket=hour&from=2025-01-01&to=2025-02-11T16:00'), now).bucket).to.equal('hour');
    expect(parseUsageQuery(q('bucket=day&from=2023-01-01&to=2025-09-27'), now).bucket).to.equal('day');
    for (const [text, param] of [
      ['bucket=week', 'bucket'],
      ['bucket=Hour', 'bucket'],
      ['bucket=', 'bucket'],
      ['bucket=hour&bucket=day', 'bucket'],
      ['bucket=hour&from=2025-01-01&to=2025-02-11T16:00:00.001', 'bucket'],
      ['bucket=day&from=2023-01-01&to=2025-09-27T00:00:01', 'bucket'],
      ['bucket=hour&group_by=team', 'group_by'],
      ['bucket=hour&from=2025-03-02&to=2025-03-01', 'from'],
    ] as const) {
      expect(rejection(() => parseUsageQuery(q(text), now)), text).to.deep.equal({ status: 400, param });
    }
  });

  it('reads the providers window, defaulting to the last hour, with the usage window\'s time rules', () => {
    const now = Date.UTC(2025, 2, 31, 12, 34, 56);
    expect(parseProvidersQuery(q(''), now)).to.deep.equal({ from: now - 3_600_000, to: now });
    expect(parseProvidersQuery(q('to=2025-03-02T10:00'), now)).to.deep.equal({ from: Date.UTC(2025, 2, 2, 9), to: Date.UTC(2025, 2, 2, 10) });
    expect(parseProvidersQuery(q('from=2025-03-01T00:00:00+01:00'), now)).to.deep.equal({ from: Date.UTC(2025, 1, 28, 23), to: now });
    for (const [text, param] of [
      ['from=2025-03-02&to=2025-03-01', 'from'],
      ['from=2025-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['to=', 'to'],
      ['group_by=provider', 'group_by'],
    ] as const) {
      expect(rejection(() => parseProvidersQuery(q(text), now)), text).to.deep.equal({ status: 400, param });
    }
  });
});
