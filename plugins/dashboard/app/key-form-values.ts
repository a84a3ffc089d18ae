// A key's fields as the form's text inputs hold them, and back: labels one `name=value` a line,
// allowed models separated by commas, an empty input meaning "no limit".
import { inputToIso, isoToInput } from './format.js';
import type { BudgetPeriod, KeyFields } from './types.js';

export interface KeyFormValues {
  name: string;
  labels: string;
  budget: string;
  period: BudgetPeriod;
  rpm: string;
  tpm: string;
  concurrent: string;
  allowedModels: string;
  expiresAt: string;
  admin: boolean;
}

export const EMPTY_FORM: KeyFormValues = { name: '', labels: '', budget: '', period: 'monthly', rpm: '', tpm: '', concurrent: '', allowedModels: '', expiresAt: '', admin: false };

export function formValues(key: KeyFields): KeyFormValues {
  const limit = key.rate_limit;
  return {
    name: key.name,
    labels: Object.entries(key.labels).map(([name, value]) => `${name}=${value}`).join('\n'),
    budget: key.budget === null ? '' : String(key.budget.amount_usd),
    period: key.budget?.period ?? 'monthly',
    rpm: String(limit?.rpm ?? ''),
    tpm: String(limit?.tpm ?? ''),
    concurrent: String(limit?.concurrent ?? ''),
    allowedModels: key.allowed_models?.join(', ') ?? '',
    expiresAt: key.expires_at === null ? '' : isoToInput(key.expires_at),
    admin: key.admin,
  };
}

/** The body of POST /admin/keys or PATCH /admin/keys/{id}; the gateway checks every value. */
export function keyBody(v: KeyFormValues): Omit<KeyFields, 'disabled'> {
  const rateLimit = { rpm: count(v.rpm), tpm: count(v.tpm), concurrent: count(v.concurrent) };
  const models = v.allowedModels.split(',').map((m) => m.trim()).filter((m) => m !== '');
  return {
    name: v.name.trim(),
    labels: parseLabels(v.labels),
    budget: v.budget.trim() === '' ? null : { amount_usd: Number(v.budget), period: v.period },
    rate_limit: rateLimit.rpm === null && rateLimit.tpm === null && rateLimit.concurrent === null ? null : rateLimit,
    allowed_models: models.length === 0 ? null : models,
    expires_at: v.expiresAt === '' ? null : inputToIso(v.expiresAt),
    admin: v.admin,
  };
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (line.trim() === '') continue;
    // A line without '=' is sent as a name with an empty value, which the gateway refuses by name.
    labels[(at < 0 ? line : line.slice(0, at)).trim()] = at < 0 ? '' : line.slice(at + 1).trim();
  }
  return labels;
}

const count = (text: string): number | null => (text.trim() === '' ? null : Number(text));
