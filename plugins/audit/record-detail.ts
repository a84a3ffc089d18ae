// A record's detail (entry-record.ts) as stored: one JSON array with fixed positions, not an
// object. Most of what JSON.stringify spends on an entry goes to property keys (~100 ns each
// here), and an array has none: the detail's own fields, the neutral usage counts, the error,
// the attempts and the pricing plugin's usual cost breakdown are positional; what has no fixed
// shape (headers, the provider's raw usage, a cost of another shape) stays as objects.
// Positions only ever get appended to.
import type { IncomingHttpHeaders } from 'node:http';
import type { Attempt, CostResult } from '../../core/context.js';
import { MemberKey, topLevelMember } from '../../core/json-member.js';
import type { Usage } from '../../core/types/usage.js';
import type { AuditEntry, AuditError } from './entry.js';
import type { RecordDetail } from './entry-record.js';
import { stringifyRedacting } from './redact.js';

const FIELDS = 21;

/**
 * The detail's JSON text. `unredacted`: the original headers `d.request_headers` points at,
 * redacted as they are serialised (entry.ts passes the request's own, uncopied). `rawInBody`:
 * the usage's raw object is the stored response body's top-level `usage`, so it is stored as a
 * reference to it (usageArray) and read back from the body (entryFromRecord).
 */
export function detailText(d: RecordDetail, unredacted: IncomingHttpHeaders | null, rawInBody = false): string {
  const encoded = [
    d.duration_ms,
    d.ttfb_ms,
    d.method,
    d.route,
    d.operation,
    d.model,
    d.resolved_model,
    d.provider_model,
    d.key_name,
    d.client_ip,
    d.stream,
    d.cache_hit,
    d.cost_usd,
    d.cost_source,
    d.error === null ? null : [d.error.type, d.error.code, d.error.message, d.error.status, d.error.provider],
    d.request_headers,
    d.request_body_truncated,
    d.response_body_truncated,
    d.usage === null ? null : usageArray(d.usage, rawInBody),
    costArray(d.cost),
    attemptsArray(d.attempts),
  ];
  return unredacted === null ? JSON.stringify(encoded) : stringifyRedacting(unredacted, encoded);
}

/** The detail a parsed detailText() stands for, or null when it is not one. */
export function detailOf(value: unknown): RecordDetail | null {
  if (!Array.isArray(value) || value.length < FIELDS) return null;
  const v = value as unknown[];
  const error = v[14] as [string, string | null, string, number, string | null] | null;
  return {
    duration_ms: v[0] as number | null,
    ttfb_ms: v[1] as number | null,
    method: v[2] as string,
    route: v[3] as string,
    operation: v[4] as string | null,
    model: v[5] as string | null,
    resolved_model: v[6] as string | null,
    provider_model: v[7] as string | null,
    key_name: v[8] as string | null,
    client_ip: v[9] as string | null,
    stream: v[10] as boolean,
    cache_hit: v[11] as boolean,
    cost_usd: v[12] as string | null,
    cost_source: v[13] as string | null,
    error: error === null ? null : errorOf(error),
    request_headers: v[15] as AuditEntry['request_headers'],
    request_body_truncated: v[16] as boolean,
    response_body_truncated: v[17] as boolean,
    usage: v[18] === null ? null : usageOf(v[18] as unknown[]),
    cost: Array.isArray(v[19]) ? costOf(v[19] as CostArray) : (v[19] as AuditEntry['cost']),
    attempts: (v[20] as Array<[string, string, number, string | null, number, number?]>).map(attemptOf),
  };
}

// The neutral counts in order, then provider_cost_usd (null: none), then raw when there is one
// (a raw null is kept: it is the array's length that says whether raw was there), or null and
// RAW_IN_BODY when raw is the stored response body's `usage`: a provider's usage object is most
// of what JSON.stringify spends on a detail (a dozen keys), and the body holds it already.
const RAW_IN_BODY = 1;

function usageArray(u: Usage, rawInBody: boolean): unknown[] {
  const cost = u.provider_cost_usd ?? null;
  // Literals of their final length: an array grown by push is copied on the way.
  if (rawInBody) {
    return [u.input_tokens, u.output_tokens, u.total_tokens, u.cached_input_tokens, u.cache_write_tokens, u.reasoning_tokens, u.audio_input_tokens, u.audio_output_tokens, cost, null, RAW_IN_BODY];
  }
  if (u.raw === undefined) {
    return [u.input_tokens, u.output_tokens, u.total_tokens, u.cached_input_tokens, u.cache_write_tokens, u.reasoning_tokens, u.audio_input_tokens, u.audio_output_tokens, cost];
  }
  return [u.input_tokens, u.output_tokens, u.total_tokens, u.cached_input_tokens, u.cache_write_tokens, u.reasoning_tokens, u.audio_input_tokens, u.audio_output_tokens, cost, u.raw];
}

function usageOf(a: unknown[]): Usage {
  const usage: Usage = {
    input_tokens: a[0] as number,
    output_tokens: a[1] as number,
    total_tokens: a[2] as number,
    cached_input_tokens: a[3] as number,
    cache_write_tokens: a[4] as number,
    reasoning_tokens: a[5] as number,
    audio_input_tokens: a[6] as number,
    audio_output_tokens: a[7] as number,
  };
  if (a[8] !== null) usage.provider_cost_usd = a[8] as number;
  // Marked for entryFromRecord, which has the body to read raw from.
  if (a.length > 10 && a[10] === RAW_IN_BODY) rawInBody.add(usage);
  else if (a.length > 9) usage.raw = a[9];
  return usage;
}

/** Usages read back whose raw object is the stored response body's `usage`. */
const rawInBody = new WeakSet<Usage>();

/** The usage as read back: a raw kept in the body taken from the body's text (gone with the body). */
export function usageWithBodyRaw(usage: Usage, responseBody: string | null): Usage {
  if (!rawInBody.has(usage)) return usage;
  const raw = bodyUsage(responseBody);
  return raw === undefined ? { ...usage } : { ...usage, raw };
}

// Read the way the provider plugin read it from the same bytes (topLevelMember): only the
// member's own text has to parse, so a body that is not JSON as a whole elsewhere (a NaN logprob
// from a Python server) still gives it back.
const USAGE = new MemberKey('usage');

export function bodyUsage(body: string | null): unknown {
  if (body === null) return undefined;
  try {
    return topLevelMember(Buffer.from(body, 'utf8'), USAGE);
  } catch {
    return undefined;
  }
}

// The pricing plugin's breakdown, {total_usd, source, pico_usd, lines: [{item, quantity,
// rate_usd, amount_usd, note?}]}, keys in that order, as [total_usd, source, pico_usd, [[item,
// quantity, rate_usd, amount_usd, note?], ...]]. A cost of any other shape (more fields, another
// order, a value JSON leaves out, a toJSON of its own) is stored as the object it is: the detail
// held nothing but objects there before, so an array is always this form.
type CostArray = [string | null, string, unknown, LineArray[]];
type LineArray = [unknown, unknown, unknown, unknown] | [unknown, unknown, unknown, unknown, unknown];
const COST_KEYS = ['total_usd', 'source', 'pico_usd', 'lines'];
const LINE_KEYS = ['item', 'quantity', 'rate_usd', 'amount_usd', 'note'];

function costArray(cost: CostResult | null): CostArray | CostResult | null {
  if (cost === null || !hasKeys(cost, COST_KEYS, COST_KEYS.length)) return cost;
  const lines = cost['lines'];
  if (!Array.isArray(lines)) return cost;
  const encoded = new Array<LineArray>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line: unknown = lines[i];
    if (typeof line !== 'object' || line === null || Array.isArray(line)) return cost;
    const l = line as Record<string, unknown>;
    if (hasKeys(l, LINE_KEYS, 4)) encoded[i] = [l['item'], l['quantity'], l['rate_usd'], l['amount_usd']];
    else if (hasKeys(l, LINE_KEYS, 5)) encoded[i] = [l['item'], l['quantity'], l['rate_usd'], l['amount_usd'], l['note']];
    else return cost;
  }
  return [cost.total_usd, cost.source, cost['pico_usd'], encoded];
}

/** Whether the object's enumerable keys are the first `n` of `keys`, in order, none undefined, and JSON.stringify would not call a toJSON. */
function hasKeys(o: Record<string, unknown>, keys: readonly string[], n: number): boolean {
  if (typeof o['toJSON'] === 'function') return false;
  let i = 0;
  for (const key in o) {
    if (i === n || key !== keys[i] || o[key] === undefined) return false;
    i++;
  }
  return i === n;
}

function costOf(a: CostArray): CostResult {
  const lines = a[3].map((l) => {
    const line: Record<string, unknown> = { item: l[0], quantity: l[1], rate_usd: l[2], amount_usd: l[3] };
    if (l.length > 4) line['note'] = l[4];
    return line;
  });
  return { total_usd: a[0], source: a[1], pico_usd: a[2], lines };
}

function attemptsArray(attempts: readonly Attempt[]): unknown[] {
  return attempts.map((a) => [a.provider, a.model, a.status, a.error, roundMs(a.duration_ms), roundMs(a.queued_ms)]);
}

/** Milliseconds as stored: sub-microsecond digits of performance.now() differences are noise. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Entries stored before queued_ms existed have five members: they waited for no connection. */
function attemptOf(a: [string, string, number, string | null, number, number?]): Attempt {
  return { provider: a[0], model: a[1], status: a[2], error: a[3], duration_ms: a[4], queued_ms: a[5] ?? 0 };
}

function errorOf(e: [string, string | null, string, number, string | null]): AuditError {
  return { type: e[0], code: e[1], message: e[2], status: e[3], provider: e[4] };
}
