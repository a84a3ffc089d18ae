// Query parameters of the admin endpoints, checked strictly: a mistyped filter name or value is
// a 400 naming it, never a silently unfiltered answer.
import { badRequest } from '../../../core/errors.js';
import type { AuditFilter, UsageBucket, UsageGroupBy } from '../store/store.js';
import { BUCKET_MS, bucketCount } from '../store/usage-buckets.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
export const DEFAULT_USAGE_DAYS = 30;
export const DEFAULT_PROVIDERS_HOURS = 1;
const MAX_Q_LENGTH = 1000;
// 41 days of hours or 2.7 years of days: plenty for a chart, and a bound on the answer and the store's work.
export const MAX_BUCKETS = 1000;

const AUDIT_PARAMS: ReadonlySet<string> = new Set(['model', 'provider', 'key', 'label', 'status', 'from', 'to', 'q', 'limit', 'cursor']);
const USAGE_PARAMS: ReadonlySet<string> = new Set(['group_by', 'bucket', 'from', 'to']);
const WINDOW_PARAMS: ReadonlySet<string> = new Set(['from', 'to']);
// Date, or date and time with optional seconds, fraction and offset. Without an offset the
// time is UTC (not the server's zone), so one query means the same everywhere.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const PLUS_AS_SPACE = /(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}(?::?\d{2})?)$/i;
const STATUS_CLASS = /^([1-5])xx$/i;
const STATUS_EXACT = /^[1-5]\d\d$/;
const GROUP_BY = /^(?:key|model|provider|label:.+)$/;

export interface AuditQuery {
  filter: AuditFilter;
  cursor: string | null;
  limit: number;
}

/** [from, to) in ms since the epoch. */
export interface TimeWindow {
  from: number;
  to: number;
}

export interface UsageQuery extends TimeWindow {
  /** Null only with a bucket: totals per bucket. */
  groupBy: UsageGroupBy | null;
  bucket: UsageBucket | null;
}

export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  checkNames(params, AUDIT_PARAMS);
  const filter: AuditFilter = {};
  const model = single(params, 'model');
  if (model !== null) filter.model = model;
  const provider = single(params, 'provider');
  if (provider !== null) filter.provider = provider;
  const key = single(params, 'key');
  if (key !== null) filter.key = key;
  const labels = params.getAll('label').map(parseLabel);
  if (labels.length > 0) filter.labels = labels;
  const status = single(params, 'status');
  if (status !== null) filter.status = parseStatus(status);
  const from = single(params, 'from');
  if (from !== null) filter.from = parseTime(from, 'from');
  const to = single(params, 'to');
  if (to !== null) filter.to = parseTime(to, 'to');
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) throw badRequest("'from' must be before 'to'", 'from');
  const q = single(params, 'q');
  if (q !== null) {
    if (q.length > MAX_Q_LENGTH) throw badRequest(`'q' must be at most ${MAX_Q_LENGTH} characters`, 'q');
    filter.q = q;
  }
  const limitText = single(params, 'limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== null) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) throw badRequest(`'limit' must be an integer from 1 to ${MAX_LIMIT}`, 'limit');
  }
  return { filter, cursor: single(params, 'cursor'), limit };
}

export function parseUsageQuery(params: URLSearchParams, now: number = Date.now()): UsageQuery {
  checkNames(params, USAGE_PARAMS);
  const bucket = parseBucket(single(params, 'bucket'));
  const groupBy = single(params, 'group_by');
  // Optional only with a bucket (totals per bucket: a time series); without one, a missing
  // group_by is a mistake, as it always was.
  if ((groupBy === null && bucket === null) || (groupBy !== null && !GROUP_BY.test(groupBy))) {
    throw badRequest("'group_by' must be one of key, model, provider, label:<name>", 'group_by');
  }
  const window = parseWindow(params, DEFAULT_USAGE_DAYS * DAY_MS, now);
  const buckets = bucketCount(bucket, window.from, window.to);
  if (buckets > MAX_BUCKETS) {
    const hint = bucket === 'hour' ? ', or use bucket=day' : '';
    throw badRequest(`'bucket=${bucket}' splits this window into ${buckets} buckets; at most ${MAX_BUCKETS} per call: narrow 'from' and 'to'${hint}`, 'bucket');
  }
  return { groupBy: groupBy as UsageGroupBy | null, bucket, ...window };
}

function parseBucket(text: string | null): UsageBucket | null {
  if (text === null) return null;
  if (!Object.hasOwn(BUCKET_MS, text)) throw badRequest("'bucket' must be hour or day", 'bucket');
  return text as UsageBucket;
}

/** GET /admin/providers: `from` and `to` only, by default the last hour. */
export function parseProvidersQuery(params: URLSearchParams, now: number = Date.now()): TimeWindow {
  checkNames(params, WINDOW_PARAMS);
  return parseWindow(params, DEFAULT_PROVIDERS_HOURS * HOUR_MS, now);
}

/** `from` and `to`; `to` defaults to now and `from` to `span` ms before `to`. */
function parseWindow(params: URLSearchParams, span: number, now: number): TimeWindow {
  const fromText = single(params, 'from');
  const toText = single(params, 'to');
  const to = toText === null ? now : parseTime(toText, 'to');
  const from = fromText === null ? to - span : parseTime(fromText, 'from');
  if (from >= to) throw badRequest("'from' must be before 'to'", 'from');
  return { from, to };
}

/** ms since the epoch of an ISO 8601 date or date-time (UTC unless it names an offset). */
export function parseTime(raw: string, param: string): number {
  // An unencoded '+' of an offset arrives as a space (form encoding); put it back.
  const text = raw.replace(PLUS_AS_SPACE, '$1+$2');
  const match = ISO_8601.exec(text);
  // A date-time without an offset gets 'Z': Date.parse would read it in the server's zone.
  const ms = match === null ? NaN : Date.parse(match[0].length > 10 && match[1] === undefined ? `${text.replace(' ', 'T')}Z` : text.replace(' ', 'T'));
  if (Number.isNaN(ms) || !isCalendarDate(text)) throw badRequest(`'${param}' must be an ISO 8601 date or date-time (e.g. 2025-01-31T12:00:00Z)`, param);
  return ms;
}

// Date.parse rolls 2025-02-30 over into March instead of refusing it.
function isCalendarDate(text: string): boolean {
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function parseStatus(text: string): readonly [number, number] {
  if (STATUS_EXACT.test(text)) return [Number(text), Number(text)];
  const cls = STATUS_CLASS.exec(text);
  if (cls !== null) return [Number(cls[1]) * 100, Number(cls[1]) * 100 + 99];
  if (text === 'error') return [400, 599];
  throw badRequest("'status' must be a status code (404), a class (4xx, 5xx) or 'error'", 'status');
}

function parseLabel(text: string): { name: string; value: string } {
  const colon = text.indexOf(':');
  if (colon <= 0) throw badRequest("'label' must be name:value", 'label');
  return { name: text.slice(0, colon), value: text.slice(colon + 1) };
}

function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw badRequest(`'${name}' is given more than once`, name);
  const value = values[0];
  if (value === '') throw badRequest(`'${name}' is empty`, name);
  return value ?? null;
}

function checkNames(params: URLSearchParams, allowed: ReadonlySet<string>): void {
  for (const name of params.keys()) {
    if (!allowed.has(name)) throw badRequest(`unknown query parameter '${name}' (allowed: ${[...allowed].join(', ')})`, name);
  }
}
