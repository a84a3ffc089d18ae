// One scrape: the gateway's own series, then the process-wide default registry (process and
// event-loop metrics, and what plugins such as the audit register there), as one text.
import { timingSafeEqual } from 'node:crypto';
import { register } from 'prom-client';
import type { Registry } from 'prom-client';
import { unauthorized } from '../../core/errors.js';

export const CONTENT_TYPE = register.contentType;

export async function scrape(own: Registry): Promise<string> {
  const [gateway, shared] = await Promise.all([own.metrics(), register.metrics()]);
  return gateway + shared;
}

/** Throws 401 unless `authorization` carries the bearer token (compared in constant time). */
export function checkBearer(authorization: string | undefined, token: string): void {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(authorization ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized('the metrics endpoint needs its bearer token');
}
