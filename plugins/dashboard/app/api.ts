// The admin API as the dashboard calls it: same origin, the signed-in key as the bearer token,
// and any answer outside 2xx turned into an ApiError carrying the gateway's error envelope.
import { session } from './session.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly param: string | null,
  ) {
    super(message);
  }
}

interface Envelope {
  error?: { message?: string; code?: string | null; param?: string | null };
}

/** Calls `path` with `key` (default: the session's) and returns the parsed JSON answer. */
export async function api<T>(path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<T> {
  const key = init.key ?? session.key() ?? '';
  const res = await fetch(path, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  const json = text === '' ? null : (JSON.parse(text) as unknown);
  if (!res.ok) {
    const error = (json as Envelope | null)?.error;
    throw new ApiError(res.status, error?.message ?? `HTTP ${res.status}`, error?.code ?? null, error?.param ?? null);
  }
  return json as T;
}

/** A query string from the members that are set; empty strings and nulls are left out. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
