// The Models screen's Providers section: GET /admin/providers over the chosen window, one row
// per provider instance with its calls, failures, durations, last failure and, when the
// failover plugin is on, its targets' breakers. Figures as the API gives them.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { ErrorNote } from '../components/error-note.js';
import { EmptyRow, TableHead, num } from '../components/table-parts.js';
import { formatInt, formatTime } from '../format.js';
import { useLoad } from '../use-load.js';
import type { List, ProviderHealth } from '../types.js';

const HOUR = 3_600_000;
const WINDOWS = [
  { label: 'Last hour', hours: 1 },
  { label: 'Last 24 hours', hours: 24 },
  { label: 'Last 7 days', hours: 168 },
] as const;

export function Providers() {
  const [hours, setHours] = useState<number>(1);
  // The API's default window is the last hour; a longer one is sent as `from`.
  const providers = useLoad(() => api<List<ProviderHealth>>(`/admin/providers${query({ from: hours === 1 ? null : new Date(Date.now() - hours * HOUR).toISOString() })}`), [hours]);
  return (
    <section aria-labelledby="providers-title">
      <div class="title-row">
        <h2 id="providers-title">Providers</h2>
        <label class="inline">
          Window
          <select value={hours} onChange={(e) => setHours(Number(e.currentTarget.value))}>
            {WINDOWS.map((w) => (
              <option value={w.hours}>{w.label}</option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={providers.error} />
      {providers.data !== null && (
        <table aria-label="Provider health">
          <TableHead columns={['Provider', 'Endpoint', num('Models'), num('Requests'), num('Errors'), num('Client errors'), num('Error rate'), num('Average'), num('p95'), 'Last error', 'Breakers']} />
          <tbody>
            {providers.data.data.length === 0 && <EmptyRow span={11}>No provider is enabled.</EmptyRow>}
            {providers.data.data.map((p) => (
              <tr>
                <th scope="row">
                  <code>{p.name}</code>
                  {p.type !== p.name && <span class="hint"> {p.type}</span>}
                </th>
                <td>{p.base_url ?? '—'}</td>
                <td class="num">{formatInt(p.models)}</td>
                <td class="num">{formatInt(p.requests)}</td>
                <td class={p.errors > 0 ? 'num bad' : 'num'}>{formatInt(p.errors)}</td>
                <td class="num">{formatInt(p.client_errors)}</td>
                <td class="num">{p.error_rate === null ? '—' : `${(p.error_rate * 100).toFixed(2)}%`}</td>
                <td class="num">{ms(p.avg_duration_ms)}</td>
                <td class="num">{ms(p.p95_duration_ms)}</td>
                <td>{p.last_error === null ? '—' : lastError(p.last_error)}</td>
                <td>{breakers(p.breakers)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const ms = (value: number | null): string => (value === null ? '—' : `${value.toFixed(1)} ms`);

function lastError(e: NonNullable<ProviderHealth['last_error']>) {
  return (
    <span class="stack">
      <span>{formatTime(e.time)}</span>
      <span class="bad">{`${e.status}${e.code === null ? '' : ` ${e.code}`}`}</span>
      {e.message !== null && <span>{e.message}</span>}
    </span>
  );
}

function breakers(list: ProviderHealth['breakers']) {
  if (list === null) return <span class="hint">failover off</span>;
  if (list.length === 0) return 'all closed';
  return (
    <ul class="plain">
      {list.map((b) => (
        <li>
          <code>{b.target}</code>{' '}
          <span class={b.state === 'closed' ? undefined : 'bad'}>{b.state}</span>
          {b.until !== null && ` until ${formatTime(b.until)}`}
          {` (${b.failures} failure${b.failures === 1 ? '' : 's'})`}
        </li>
      ))}
    </ul>
  );
}
