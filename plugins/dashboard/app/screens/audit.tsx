// The audit log: filters sent to GET /admin/audit as they are, one page at a time by cursor
// (the server pages and filters; nothing is loaded whole).
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { ErrorNote } from '../components/error-note.js';
import { EmptyRow, TableHead, num } from '../components/table-parts.js';
import { formatInt, formatTime, formatUsd, inputToIso } from '../format.js';
import { useLoad } from '../use-load.js';
import type { AuditSummary, List } from '../types.js';

const FILTERS = [
  { name: 'model', label: 'Model', placeholder: 'openai/gpt-4o-mini' },
  { name: 'provider', label: 'Provider', placeholder: 'openai' },
  { name: 'key', label: 'Key id', placeholder: 'master' },
  { name: 'status', label: 'Status', placeholder: '429, 4xx or error' },
  { name: 'label', label: 'Label', placeholder: 'name:value' },
  { name: 'q', label: 'Text in bodies', placeholder: 'refund' },
] as const;
type FilterName = (typeof FILTERS)[number]['name'] | 'from' | 'to';
type Filters = Partial<Record<FilterName, string>>;
const PAGE = 50;

export function Audit() {
  const [draft, setDraft] = useState<Filters>({});
  const [filters, setFilters] = useState<Filters>({});
  // The cursors of the pages seen, so "Previous" goes back without the server keeping state.
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useLoad(() => api<List<AuditSummary>>(`/admin/audit${query({ ...filters, from: inputToIso(filters.from ?? ''), to: inputToIso(filters.to ?? ''), limit: PAGE, cursor })}`), [filters, cursor]);

  function submit(event: Event): void {
    event.preventDefault();
    setFilters(draft);
    setCursors([null]);
  }
  const input = (name: FilterName) => (e: { currentTarget: HTMLInputElement }) => setDraft({ ...draft, [name]: e.currentTarget.value });

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form class="filters" onSubmit={submit}>
        {FILTERS.map((f) => (
          <label>
            {f.label}
            <input value={draft[f.name] ?? ''} placeholder={f.placeholder} onInput={input(f.name)} />
          </label>
        ))}
        <label>
          From (UTC)
          <input type="datetime-local" value={draft.from ?? ''} onInput={input('from')} />
        </label>
        <label>
          To (UTC)
          <input type="datetime-local" value={draft.to ?? ''} onInput={input('to')} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={page.error} />
      {page.data !== null && (
        <>
          <table aria-label="Audit entries, newest first">
            <TableHead columns={['Time', 'Status', 'Model', 'Key', 'Labels', num('Tokens'), num('Cost'), num('Duration')]} />
            <tbody>
              {page.data.data.length === 0 && <EmptyRow span={8}>No entries match.</EmptyRow>}
              {page.data.data.map((e) => (
                <tr>
                  <td>
                    <a href={`#/audit/${encodeURIComponent(e.id)}`}>{formatTime(e.time)}</a>
                  </td>
                  <td class={e.status >= 400 ? 'bad' : undefined}>{e.status}</td>
                  <td>{e.model ?? '—'}</td>
                  <td>{e.key_name ?? e.key_id ?? '—'}</td>
                  <td>{labelText(e.labels)}</td>
                  <td class="num">{formatInt(e.total_tokens)}</td>
                  <td class="num">{formatUsd(e.cost_usd)}</td>
                  <td class="num">{`${Math.round(e.duration_ms)} ms`}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages">
            <button type="button" class="secondary" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Previous
            </button>
            <span>Page {cursors.length}</span>
            <button type="button" class="secondary" disabled={page.data.next_cursor == null} onClick={() => setCursors([...cursors, page.data!.next_cursor!])}>
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

function labelText(labels: Record<string, string | string[]>): string {
  return Object.entries(labels).map(([n, v]) => `${n}=${Array.isArray(v) ? v.join('|') : v}`).join(', ');
}

