// API keys: the list with spend, limits and status; create (the secret shown once), edit,
// disable or enable, delete after a confirmation.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote } from '../components/error-note.js';
import { EmptyRow, TableHead } from '../components/table-parts.js';
import { SpendBar } from '../components/spend-bar.js';
import { formatTime } from '../format.js';
import { formValues } from '../key-form-values.js';
import { useLoad } from '../use-load.js';
import type { ApiKey, CreatedKey, List } from '../types.js';
import { KeyForm } from './key-form.js';
import { SecretOnce } from './secret-once.js';

type Editing = { kind: 'none' } | { kind: 'create' } | { kind: 'edit'; key: ApiKey } | { kind: 'delete'; key: ApiKey };

export function Keys() {
  const keys = useLoad(() => api<List<ApiKey>>('/admin/keys'), []);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const done = (): void => {
    setEditing({ kind: 'none' });
    keys.reload();
  };
  const act = (call: () => Promise<unknown>) => (): void => {
    setError(null);
    call().then(done, (err: Error) => setError(err));
  };

  return (
    <section aria-labelledby="keys-title">
      <div class="title-row">
        <h1 id="keys-title">API keys</h1>
        <button type="button" onClick={() => setEditing({ kind: 'create' })}>
          Create key
        </button>
      </div>
      {created !== null && <SecretOnce created={created} onDone={() => setCreated(null)} />}
      {editing.kind === 'create' && (
        <KeyForm
          title="New key"
          submitLabel="Create"
          onCancel={done}
          onSubmit={async (body) => {
            setCreated(await api<CreatedKey>('/admin/keys', { method: 'POST', body }));
            done();
          }}
        />
      )}
      {editing.kind === 'edit' && (
        <KeyForm
          title={`Edit ${editing.key.name}`}
          initial={formValues(editing.key)}
          submitLabel="Save"
          onCancel={done}
          onSubmit={async (body) => {
            await api(`/admin/keys/${encodeURIComponent(editing.key.id)}`, { method: 'PATCH', body });
            done();
          }}
        />
      )}
      {editing.kind === 'delete' && (
        <div class="panel danger" role="alertdialog" aria-labelledby="delete-title">
          <p id="delete-title">
            Delete key <strong>{editing.key.name}</strong>? Calls with it are refused from then on; this cannot be undone.
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={act(() => api(`/admin/keys/${encodeURIComponent(editing.key.id)}`, { method: 'DELETE' }))}>
              Delete
            </button>
            <button type="button" class="secondary" onClick={done}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={error ?? keys.error} />
      {keys.data !== null && (
        <table>
          <TableHead columns={['Name', 'Labels', 'Spend', 'Limits', 'Status', 'Expires', { label: 'Actions', hidden: true }]} />
          <tbody>
            {keys.data.data.length === 0 && <EmptyRow span={7}>No keys yet.</EmptyRow>}
            {keys.data.data.map((key) => (
              <tr data-key-id={key.id}>
                <td>
                  {key.name}
                  {key.admin && <span class="badge">admin</span>}
                </td>
                <td>{Object.entries(key.labels).map(([n, v]) => <code class="label">{`${n}=${v}`}</code>)}</td>
                <td>
                  <SpendBar apiKey={key} />
                </td>
                <td>{limits(key)}</td>
                <td>{status(key)}</td>
                <td>{formatTime(key.expires_at)}</td>
                <td>
                  <div class="row-actions">
                  <button type="button" class="secondary" onClick={() => setEditing({ kind: 'edit', key })}>
                    Edit
                  </button>
                  <button type="button" class="secondary" onClick={act(() => api(`/admin/keys/${encodeURIComponent(key.id)}`, { method: 'PATCH', body: { disabled: !key.disabled } }))}>
                    {key.disabled ? 'Enable' : 'Disable'}
                  </button>
                  <button type="button" class="secondary danger" onClick={() => setEditing({ kind: 'delete', key })}>
                    Delete
                  </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function limits(key: ApiKey): string {
  const l = key.rate_limit;
  const parts = l === null ? [] : [l.rpm !== null && `${l.rpm} rpm`, l.tpm !== null && `${l.tpm} tpm`, l.concurrent !== null && `${l.concurrent} at once`].filter((p): p is string => p !== false);
  if (key.allowed_models !== null) parts.push(`models: ${key.allowed_models.join(', ')}`);
  return parts.length === 0 ? 'none' : parts.join(' · ');
}

function status(key: ApiKey): string {
  if (key.disabled) return 'disabled';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= Date.now()) return 'expired';
  return 'active';
}
