// What an operator may send to POST /admin/keys and PATCH /admin/keys/{id}, checked member by
// member: a bad value is a 400 whose `param` names it (`budget.amount_usd`, `labels.team`,
// `allowed_models[1]`), an unknown or read-only member too, never silently dropped.
import type { BudgetPeriod, KeyBudget, KeyRateLimit } from '../../core/context.js';
import { badRequest } from '../../core/errors.js';
import type { GatewayError } from '../../core/errors.js';
import { parseTime } from '../audit/routes/params.js';
import type { KeyFields } from '../audit/store/store.js';
import { MAX_VALUE_LENGTH } from '../tagging/labels.js';

const PERIODS: readonly BudgetPeriod[] = ['daily', 'weekly', 'monthly', 'total'];
const READ_ONLY = new Set(['id', 'object', 'secret', 'spend', 'created_at', 'updated_at']);
const LABEL_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
// No control characters (NUL cannot even be stored in PostgreSQL text) and no line breaks.
const CONTROL = /[\u0000-\u001f\u007f]/;
const MAX_NAME = 200;
const MAX_LABELS = 32;
const MAX_MODELS = 1000;
const MAX_MODEL_LENGTH = 256;
// A budget in dollars; beyond this a typo is likelier than a real cap.
const MAX_BUDGET_USD = 1e9;

type Parser<T> = (value: unknown, param: string) => T;

const PARSERS: { [F in keyof KeyFields]: Parser<KeyFields[F]> } = {
  name: (v, p) => text(v, p, MAX_NAME),
  labels: parseLabels,
  budget: nullable(parseBudget),
  rate_limit: nullable(parseRateLimit),
  allowed_models: nullable(parseAllowedModels),
  expires_at: nullable(parseExpiry),
  disabled: boolean,
  admin: boolean,
};

/** The fields of a new key; `name` is required, the rest default to no limit, enabled, not admin. */
export function parseNewKey(body: Record<string, unknown>): KeyFields {
  const { name, ...fields } = parseKeyChange(body);
  if (name === undefined) throw invalid("'name' is required", 'name');
  return { name, labels: {}, budget: null, rate_limit: null, allowed_models: null, expires_at: null, disabled: false, admin: false, ...fields };
}

/** The fields a PATCH sets; those absent stay as they are. */
export function parseKeyChange(body: Record<string, unknown>): Partial<KeyFields> {
  const fields: Partial<Record<keyof KeyFields, unknown>> = {};
  for (const member of Object.keys(body)) {
    if (READ_ONLY.has(member)) throw invalid(`'${member}' cannot be set`, member, 'read_only_parameter');
    if (!Object.hasOwn(PARSERS, member)) throw invalid(`unknown member '${member}'`, member, 'unknown_parameter');
    const field = member as keyof KeyFields;
    fields[field] = (PARSERS[field] as Parser<unknown>)(body[member], member);
  }
  return fields as Partial<KeyFields>;
}

function parseLabels(value: unknown, param: string): Record<string, string> {
  const labels = object(value, param);
  const names = Object.keys(labels);
  if (names.length > MAX_LABELS) throw invalid(`at most ${MAX_LABELS} labels`, param);
  const out: Record<string, string> = {};
  for (const name of names) {
    if (!LABEL_NAME.test(name)) throw invalid(`a label name is 1-64 letters, digits, '_', '.', ':' or '-'`, `${param}.${name}`);
    out[name] = text(labels[name], `${param}.${name}`, MAX_VALUE_LENGTH);
  }
  return out;
}

function parseBudget(value: unknown, param: string): KeyBudget {
  const budget = object(value, param);
  onlyMembers(budget, ['amount_usd', 'period'], param);
  const amount = budget['amount_usd'];
  if (typeof amount !== 'number' || !(amount > 0 && amount <= MAX_BUDGET_USD)) throw invalid(`must be a number of dollars above 0 and at most ${MAX_BUDGET_USD}`, `${param}.amount_usd`);
  const period = budget['period'];
  if (!PERIODS.includes(period as BudgetPeriod)) throw invalid(`must be one of ${PERIODS.join(', ')}`, `${param}.period`);
  return { amount_usd: amount, period: period as BudgetPeriod };
}

/** Null when no member sets a limit. */
function parseRateLimit(value: unknown, param: string): KeyRateLimit | null {
  const limit = object(value, param);
  onlyMembers(limit, ['rpm', 'tpm', 'concurrent'], param);
  const one = (name: string): number | null => {
    const v = limit[name];
    if (v === undefined || v === null) return null;
    if (!Number.isSafeInteger(v) || (v as number) < 1) throw invalid('must be a positive integer or null', `${param}.${name}`);
    return v as number;
  };
  const parsed = { rpm: one('rpm'), tpm: one('tpm'), concurrent: one('concurrent') };
  return parsed.rpm === null && parsed.tpm === null && parsed.concurrent === null ? null : parsed;
}

function parseAllowedModels(value: unknown, param: string): string[] {
  if (!Array.isArray(value)) throw invalid('must be an array of model ids, `<provider>/*` or `*`, or null', param);
  if (value.length > MAX_MODELS) throw invalid(`at most ${MAX_MODELS} entries`, param);
  return value.map((v, i) => {
    const id = text(v, `${param}[${i}]`, MAX_MODEL_LENGTH);
    if (/\s/.test(id) || (id.includes('*') && id !== '*' && !/^[^*]+\/\*$/.test(id))) throw invalid("a model id, '<provider>/*' or '*'", `${param}[${i}]`);
    return id;
  });
}

/** ms since the epoch; a date-time without an offset is UTC. */
function parseExpiry(value: unknown, param: string): number {
  const time = text(value, param, 64);
  try {
    return parseTime(time, param);
  } catch {
    // The query parameters' parser says it without this API's code: every problem here is `invalid_value`.
    throw invalid('must be an ISO 8601 date or date-time (e.g. 2027-01-01T00:00:00Z)', param);
  }
}

function nullable<T>(parse: Parser<T>): Parser<T | null> {
  return (value, param) => (value === null ? null : parse(value, param));
}

function text(value: unknown, param: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || CONTROL.test(value)) throw invalid(`must be a non-blank string of at most ${max} characters without control characters`, param);
  return value;
}

function boolean(value: unknown, param: string): boolean {
  if (typeof value !== 'boolean') throw invalid('must be true or false', param);
  return value;
}

function object(value: unknown, param: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('must be an object', param);
  return value as Record<string, unknown>;
}

function onlyMembers(value: Record<string, unknown>, allowed: readonly string[], param: string): void {
  for (const member of Object.keys(value)) if (!allowed.includes(member)) throw invalid(`unknown member '${member}'`, `${param}.${member}`, 'unknown_parameter');
}

function invalid(message: string, param: string, code = 'invalid_value'): GatewayError {
  return badRequest(`${param}: ${message}`, param, code);
}
