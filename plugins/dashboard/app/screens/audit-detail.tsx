// One audit entry in full: bodies pretty-printed (a stream arrives already reassembled),
// labels, usage, cost and its breakdown, provider attempts, timings, and the trace id if any.
import { api } from '../api.js';
import { ErrorNote } from '../components/error-note.js';
import { TableHead, num } from '../components/table-parts.js';
import { formatInt, formatTime, formatUsd, prettyJson } from '../format.js';
import { useLoad } from '../use-load.js';
import type { AuditEntry } from '../types.js';

export function AuditDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const entry = useLoad(() => api<AuditEntry>(`/admin/audit/${encodeURIComponent(id)}`), [id]);
  const e = entry.data;
  return (
    <section aria-labelledby="entry-title">
      <button type="button" class="secondary" onClick={onBack}>
        ← Audit log
      </button>
      <h1 id="entry-title">Audit entry</h1>
      <ErrorNote error={entry.error} />
      {e !== null && (
        <>
          <dl class="facts">
            <dt>Id</dt>
            <dd>
              <code>{e.id}</code>
            </dd>
            <dt>Time</dt>
            <dd>{formatTime(e.time)}</dd>
            <dt>Route</dt>
            <dd>{`${e.route}${e.stream ? ' (stream)' : ''}`}</dd>
            <dt>Status</dt>
            <dd>{e.error === null ? e.status : `${e.status} ${e.error.type}${e.error.code === null ? '' : ` (${e.error.code})`}: ${e.error.message}`}</dd>
            <dt>Model</dt>
            <dd>{`${e.model ?? '—'} via ${e.provider ?? '—'}`}</dd>
            <dt>Key</dt>
            <dd>{e.key_name ?? e.key_id ?? '—'}</dd>
            <dt>Labels</dt>
            <dd>
              <Labels labels={e.labels} />
            </dd>
            <dt>Tokens</dt>
            <dd>{`${formatInt(e.input_tokens)} in, ${formatInt(e.output_tokens)} out, ${formatInt(e.total_tokens)} total`}</dd>
            <dt>Cost</dt>
            <dd>{e.cost === null ? formatUsd(e.cost_usd) : `${formatUsd(e.cost.total_usd)} (${e.cost.source})`}</dd>
            <dt>Timings</dt>
            <dd>{`${e.duration_ms.toFixed(1)} ms total${e.ttfb_ms === null ? '' : `, first byte after ${e.ttfb_ms.toFixed(1)} ms`}`}</dd>
            {e.trace_id != null && (
              <>
                <dt>Trace id</dt>
                <dd>
                  <code>{e.trace_id}</code>
                </dd>
              </>
            )}
          </dl>
          <h2>Attempts</h2>
          <table>
            <TableHead columns={['Provider', 'Model', 'Status', num('Duration'), 'Error']} />
            <tbody>
              {e.attempts.map((a) => (
                <tr>
                  <td>{a.provider}</td>
                  <td>{a.model}</td>
                  <td>{a.status ?? '—'}</td>
                  <td class="num">{`${a.duration_ms.toFixed(1)} ms`}</td>
                  <td>{a.error === null ? '' : prettyJson(a.error)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Json title="Request body" value={e.request_body} />
          <Json title="Response body" value={e.response_body} />
          <Json title="Usage" value={e.usage} />
          <Json title="Cost breakdown" value={e.cost} />
          <Json title="Request headers (credentials redacted)" value={e.request_headers} />
        </>
      )}
    </section>
  );
}

/** Each label value with a link to its conversation: every call that carries it. */
function Labels({ labels }: { labels: AuditEntry['labels'] }) {
  const values = Object.entries(labels).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value })));
  if (values.length === 0) return <>—</>;
  return (
    <ul class="plain">
      {values.map(({ name, value }) => (
        <li>
          {`${name}=${value} `}
          <a href={`#/conversation/${encodeURIComponent(name)}/${encodeURIComponent(value)}`} aria-label={`Conversation ${name}=${value}`}>
            conversation
          </a>
        </li>
      ))}
    </ul>
  );
}

function Json({ title, value }: { title: string; value: unknown }) {
  return (
    <details open={title.endsWith('body')}>
      <summary>{title}</summary>
      <pre aria-label={title}>{value === null || value === undefined ? '—' : prettyJson(value)}</pre>
    </details>
  );
}
