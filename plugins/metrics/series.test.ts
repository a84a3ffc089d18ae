// The request path's counters and histograms, read through prom-client's registry as a scrape
// reads them: bucket bounds, cumulative counts, sum and count; labels checked once; a reset
// that keeps held series counting; one series per label combination whatever the values hold.
import { expect } from 'chai';
import { Registry } from 'prom-client';
import { parseSamples, valueOf } from '../../test/helpers/prometheus-text.js';
import { SeriesCounter, SeriesHistogram, labelKey } from './series.js';

describe('metrics: series', () => {
  it('a histogram counts a value on a bound in that bucket, cumulatively, and one above them all in +Inf only', async () => {
    const registry = new Registry();
    const latency = new SeriesHistogram('t_seconds', 'Test.', ['route'], [0.1, 1, 10], registry);
    const chat = latency.series({ route: '/chat' });
    for (const seconds of [0.05, 0.1, 0.5, 1, 30, Number.NaN]) chat.observe(seconds);
    latency.series({ route: '/embeddings' }).observe(2);
    const s = parseSamples(await registry.metrics());
    const bucket = (le: string) => valueOf(s, 't_seconds_bucket', { route: '/chat', le });
    expect([bucket('0.1'), bucket('1'), bucket('10'), bucket('+Inf')]).to.deep.equal([2, 4, 4, 5]);
    expect(valueOf(s, 't_seconds_sum', { route: '/chat' })).to.equal(31.65);
    expect(valueOf(s, 't_seconds_count', { route: '/chat' })).to.equal(5);
    expect(valueOf(s, 't_seconds_bucket', { route: '/embeddings', le: '1' })).to.equal(0);
    expect(valueOf(s, 't_seconds_bucket', { route: '/embeddings', le: '10' })).to.equal(1);
  });

  it('a counter serves its series with the type and help prom-client writes, and takes only its own labels', async () => {
    const registry = new Registry();
    const requests = new SeriesCounter('t_total', 'Requests.', ['provider', 'status_class'], registry);
    requests.series({ provider: 'openai', status_class: '2xx' }).inc();
    requests.series({ provider: 'openai', status_class: '2xx' }).inc(2);
    requests.series({ provider: 'openai', status_class: '5xx' }).inc(Number.POSITIVE_INFINITY);
    expect(await registry.metrics()).to.equal(
      '# HELP t_total Requests.\n# TYPE t_total counter\nt_total{provider="openai",status_class="2xx"} 3\nt_total{provider="openai",status_class="5xx"} 0\n',
    );
    expect(() => requests.series({ provider: 'openai' })).to.throw('t_total: labels provider are not provider, status_class');
    expect(() => requests.series({ provider: 'openai', status: '2xx' })).to.throw('t_total: labels provider, status are not provider, status_class');
  });

  it('a reset zeroes the series in place: one held across it keeps counting', async () => {
    const registry = new Registry();
    const requests = new SeriesCounter('t_total', 'Requests.', ['provider'], registry);
    const held = requests.series({ provider: 'openai' });
    held.inc(5);
    registry.resetMetrics();
    held.inc();
    expect(valueOf(parseSamples(await registry.metrics()), 't_total', { provider: 'openai' })).to.equal(1);
  });

  it('one key per combination of label values, whatever characters they hold', () => {
    expect(labelKey(['ab', 'c'])).to.not.equal(labelKey(['a', 'bc']));
    expect(labelKey(['a\u0000b', 'c'])).to.not.equal(labelKey(['a', 'b\u0000c']));
    expect(labelKey(['1:a', ''])).to.not.equal(labelKey(['', '1:a']));
    expect(labelKey(['openai', '2xx'])).to.equal(labelKey(['openai', '2xx']));
  });
});
