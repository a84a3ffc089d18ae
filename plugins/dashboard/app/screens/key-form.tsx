// Create or edit a key. The gateway validates; its error (which names the field) is shown as is.
import { useState } from 'preact/hooks';
import type { TargetedEvent } from 'preact';
import { ErrorNote } from '../components/error-note.js';
import { EMPTY_FORM, keyBody } from '../key-form-values.js';
import type { KeyFormValues } from '../key-form-values.js';
import type { BudgetPeriod } from '../types.js';

const PERIODS: BudgetPeriod[] = ['daily', 'weekly', 'monthly', 'total'];

interface Props {
  title: string;
  initial?: KeyFormValues;
  submitLabel: string;
  onSubmit: (body: ReturnType<typeof keyBody>) => Promise<void>;
  onCancel: () => void;
}

export function KeyForm({ title, initial = EMPTY_FORM, submitLabel, onSubmit, onCancel }: Props) {
  const [v, setV] = useState(initial);
  const [error, setError] = useState<Error | null>(null);
  const set = (field: keyof KeyFormValues) => (e: TargetedEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setV({ ...v, [field]: e.currentTarget instanceof HTMLInputElement && e.currentTarget.type === 'checkbox' ? e.currentTarget.checked : e.currentTarget.value });

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setError(null);
    try {
      await onSubmit(keyBody(v));
    } catch (err) {
      setError(err as Error);
    }
  }

  return (
    <form class="panel key-form" onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      <div class="grid">
        <label>
          Name
          <input required value={v.name} onInput={set('name')} />
        </label>
        <label>
          Labels (one <code>name=value</code> a line)
          <textarea rows={2} value={v.labels} onInput={set('labels')} />
        </label>
        <label>
          Budget (USD)
          <input type="number" min="0" step="any" value={v.budget} onInput={set('budget')} />
        </label>
        <label>
          Budget period
          <select value={v.period} onChange={set('period')}>
            {PERIODS.map((period) => (
              <option value={period}>{period}</option>
            ))}
          </select>
        </label>
        <label>
          Requests per minute
          <input type="number" min="1" step="1" value={v.rpm} onInput={set('rpm')} />
        </label>
        <label>
          Tokens per minute
          <input type="number" min="1" step="1" value={v.tpm} onInput={set('tpm')} />
        </label>
        <label>
          Concurrent requests
          <input type="number" min="1" step="1" value={v.concurrent} onInput={set('concurrent')} />
        </label>
        <label>
          Allowed models (comma-separated; empty: all)
          <input value={v.allowedModels} placeholder="openai/*, anthropic/claude-sonnet-4-5" onInput={set('allowedModels')} />
        </label>
        <label>
          Expires (UTC)
          <input type="datetime-local" value={v.expiresAt} onInput={set('expiresAt')} />
        </label>
        <label class="check">
          <input type="checkbox" checked={v.admin} onChange={set('admin')} />
          Admin access (may use the admin API and this dashboard)
        </label>
      </div>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit">{submitLabel}</button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
