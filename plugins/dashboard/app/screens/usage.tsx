// Usage: totals per label value, key, model or provider for a time range, from GET /admin/usage,
// as a table and a chart; and cost over time, from one more usage call per hour or day.
import { useMemo, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { Chart } from '../components/chart.js';
import { ErrorNote } from '../components/error-note.js';
import { EmptyRow, TableHead, num } from '../components/table-parts.js';
import { formatInt, formatUsd, inputToIso, isoToInput } from '../format.js';
import { useLoad } from '../use-load.js';
import type { List, UsageRow } from '../types.js';
import { costOverTime } from '../cost-over-time.js';

const DAY = 86_400_000;
const DIMENSIONS = ['label', 'key', 'model', 'provider'] as const;
type Dimension = (typeof DIMENSIONS)[number];

export function Usage() {
  const [dimension, setDimension] = useState<Dimension>('model');
  const [labelName, setLabelName] = useState('');
  const [from, setFrom] = useState(isoToInput(new Date(Date.now() - 7 * DAY).toISOString()));
  const [to, setTo] = useState('');
  const [shown, setShown] = useState({ groupBy: 'model', from: inputToIso(from), to: '' });

  const rows = useLoad(() => api<List<UsageRow>>(`/admin/usage${query({ group_by: shown.groupBy, from: shown.from, to: shown.to })}`), [shown]);
  const overTime = useLoad(() => costOverTime(shown.from, shown.to), [shown]);

  function submit(event: Event): void {
    event.preventDefault();
    setShown({ groupBy: dimension === 'label' ? `label:${labelName.trim()}` : dimension, from: inputToIso(from), to: inputToIso(to) });
  }

  const data = useMemo(() => rows.data?.data ?? [], [rows.data]);
  // Built once per answer, so typing in the filters does not redraw the charts.
  const bars = useMemo(() => ({ categories: data.map((r) => r.value ?? '(none)'), x: data.map((_, i) => i), y: data.map((r) => Number(r.cost_usd)) }), [data]);
  const line = useMemo(
    () => overTime.data && { title: `Cost over time (USD per ${overTime.data.bucket})`, x: overTime.data.points.map((p) => p.time / 1000), y: overTime.data.points.map((p) => p.costUsd) },
    [overTime.data],
  );
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage</h1>
      <form class="filters" onSubmit={submit}>
        <label>
          Group by
          <select value={dimension} onChange={(e) => setDimension(e.currentTarget.value as Dimension)}>
            {DIMENSIONS.map((d) => (
              <option value={d}>{d}</option>
            ))}
          </select>
        </label>
        {dimension === 'label' && (
          <label>
            Label name
            <input value={labelName} required onInput={(e) => setLabelName(e.currentTarget.value)} placeholder="x-openwebui-user-id" />
          </label>
        )}
        <label>
          From (UTC)
          <input type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </label>
        <label>
          To (UTC, empty: now)
          <input type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </label>
        <button type="submit">Show</button>
      </form>
      <ErrorNote error={rows.error} />
      {rows.data !== null && (
        <>
          <table aria-label={`Usage by ${shown.groupBy}`}>
            <TableHead columns={[shown.groupBy, num('Requests'), num('Input tokens'), num('Output tokens'), num('Total tokens'), num('Cost')]} />
            <tbody>
              {data.length === 0 && <EmptyRow span={6}>No calls in this range.</EmptyRow>}
              {data.map((row) => (
                <tr>
                  <th scope="row">{row.value ?? <em>(none)</em>}</th>
                  <td class="num">{formatInt(row.requests)}</td>
                  <td class="num">{formatInt(row.input_tokens)}</td>
                  <td class="num">{formatInt(row.output_tokens)}</td>
                  <td class="num">{formatInt(row.total_tokens)}</td>
                  <td class="num" title={row.unpriced_requests > 0 ? `${row.unpriced_requests} calls had no known price: a lower bound` : undefined}>
                    {formatUsd(row.cost_usd)}
                    {row.unpriced_requests > 0 && ' +'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.length > 0 && <Chart title={`Cost by ${shown.groupBy} (USD)`} {...bars} yLabel="USD" />}
        </>
      )}
      <ErrorNote error={overTime.error} />
      {line !== null && <Chart categories={null} {...line} yLabel="USD" />}
    </section>
  );
}
