// GET /admin/providers: each configured provider instance (name, type, origin, how many models
// it lists) with its health over a window, from the audit log: requests, failures, client
// errors, durations and the last error; and, while the failover plugin is on, its targets'
// circuit breakers. Served by the audit plugin because the figures are the audit log's, read
// after the same writer flush and with the same time parameters as /admin/usage; the
// instances come from the core's registry, the model counts from the router's `models`
// service and the breakers from the failover's `breakers` service, each read when present.
import type { Gateway } from '../../../core/plugin.js';
import type { Provider } from '../../../core/provider.js';
import { sendJson } from '../../../core/respond.js';
import type { TargetBreaker } from '../../failover/breaker-service.js';
import type { AuditStore, ProviderHealth, ProviderLastError } from '../store/store.js';
import { parseProvidersQuery } from './params.js';
import { addAdminGet } from './admin-get.js';

export interface ProvidersRouteOptions {
  store: AuditStore;
  /** Stores what is queued, so a call just answered is counted. */
  beforeRead: () => Promise<unknown>;
}

/** A row of the answer: the instance, its health over the window, its breakers. */
export interface ProviderView extends Omit<ProviderHealth, 'provider' | 'last_error'> {
  name: string;
  type: string;
  base_url: string | null;
  models: number;
  error_rate: number | null;
  last_error: { time: string; status: number; code: string | null; message: string | null } | null;
  /** Null when the failover plugin is off. */
  breakers: Array<{ target: string; state: TargetBreaker['state']; failures: number; until: string | null }> | null;
}

const NO_CALLS: Omit<ProviderHealth, 'provider'> = { requests: 0, errors: 0, client_errors: 0, avg_duration_ms: null, p95_duration_ms: null, last_error: null };

export function registerProvidersRoute(gw: Gateway, options: ProvidersRouteOptions): void {
  addAdminGet(gw, '/admin/providers', async (ctx, params) => {
    const window = parseProvidersQuery(params);
    await options.beforeRead();
    const health = new Map((await options.store.providerHealth(window.from, window.to)).map((h) => [h.provider, h]));
    const models = gw.services.models?.countByProvider() ?? new Map<string, number>();
    const breakers = gw.services.breakers?.states() ?? null;
    const providers = [...gw.providers].sort((a, b) => (a.name < b.name ? -1 : 1));
    sendJson(ctx, 200, {
      object: 'list',
      from: new Date(window.from).toISOString(),
      to: new Date(window.to).toISOString(),
      data: providers.map((p): ProviderView => {
        const h = health.get(p.name) ?? NO_CALLS;
        return {
          name: p.name,
          type: p.type,
          base_url: originOf(p),
          models: models.get(p.name) ?? 0,
          requests: h.requests,
          errors: h.errors,
          client_errors: h.client_errors,
          error_rate: h.requests === 0 ? null : round(h.errors / h.requests, 4),
          avg_duration_ms: h.avg_duration_ms === null ? null : round(h.avg_duration_ms, 3),
          p95_duration_ms: h.p95_duration_ms,
          last_error: h.last_error === null ? null : lastErrorView(h.last_error),
          breakers: breakers === null ? null : breakers.filter((b) => b.provider === p.name).map(breakerView),
        };
      }),
    });
  });
}

/** Scheme, host and port only: a base URL may carry a credential (user info, a query) or a deployment path. */
function originOf(provider: Provider): string | null {
  const url = provider.passthrough?.baseUrl;
  if (url === undefined) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function lastErrorView(e: ProviderLastError): NonNullable<ProviderView['last_error']> {
  return { time: new Date(e.ts).toISOString(), status: e.status, code: e.code, message: e.message };
}

function breakerView(b: TargetBreaker): NonNullable<ProviderView['breakers']>[number] {
  return { target: b.target, state: b.state, failures: b.failures, until: b.until === null ? null : new Date(b.until).toISOString() };
}

function round(n: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(n * scale) / scale;
}
