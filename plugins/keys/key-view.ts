// A key as the admin API shows it: every field the operator set, times in ISO 8601, its spend;
// never its secret or the secret's hash.
import type { KeyBudget, KeyRateLimit } from '../../core/context.js';
import type { StoredKey } from '../audit/store/store.js';
import type { KeySpend } from './spend.js';

export interface KeyView {
  id: string;
  object: 'api_key';
  name: string;
  labels: Record<string, string>;
  budget: KeyBudget | null;
  rate_limit: KeyRateLimit | null;
  allowed_models: string[] | null;
  expires_at: string | null;
  disabled: boolean;
  admin: boolean;
  created_at: string;
  updated_at: string;
  spend: KeySpend;
}

export function keyView(key: StoredKey, spend: KeySpend): KeyView {
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    labels: key.labels,
    budget: key.budget,
    rate_limit: key.rate_limit,
    allowed_models: key.allowed_models,
    expires_at: key.expires_at === null ? null : new Date(key.expires_at).toISOString(),
    disabled: key.disabled,
    admin: key.admin,
    created_at: new Date(key.created_at).toISOString(),
    updated_at: new Date(key.updated_at).toISOString(),
    spend,
  };
}
