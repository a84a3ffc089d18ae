// Where each provider's passthrough requests go, built once when every provider is registered:
// the parsed base URL, whether a leading `v1/` of the path is dropped (a base URL that already
// ends in /v1), the credential headers and the connection pool of its scheme.
import type { Agent } from 'node:http';
import { GatewayError } from '../../core/errors.js';
import type { Provider } from '../../core/provider.js';
import type { UsageDialect } from './usage-of.js';

export interface PassthroughRoute {
  readonly provider: Provider;
  /** `https://api.openai.com` */
  readonly origin: string;
  /** The base URL's path without a trailing slash (`/v1`, or '' for none). */
  readonly basePath: string;
  readonly stripV1: boolean;
  /** Lower-case names. */
  readonly authHeaders: Readonly<Record<string, string>>;
  readonly agent: Agent;
  readonly dialect: UsageDialect;
}

export interface Agents {
  http: Agent;
  https: Agent;
}

export function providerNotFound(name: string): GatewayError {
  return new GatewayError({ status: 404, type: 'not_found_error', message: `no provider '${name}' serves passthrough requests`, code: 'provider_not_found' });
}

export class PassthroughTargets {
  readonly #byName = new Map<string, PassthroughRoute>();

  build(providers: Iterable<Provider>, agents: Agents): void {
    for (const provider of providers) {
      const target = provider.passthrough;
      if (target === undefined) continue;
      const base = new URL(target.baseUrl);
      const basePath = base.pathname.replace(/\/+$/, '');
      const authHeaders: Record<string, string> = {};
      for (const name in target.authHeaders) authHeaders[name.toLowerCase()] = target.authHeaders[name]!;
      this.#byName.set(provider.name, Object.freeze({
        provider,
        origin: base.origin,
        basePath,
        stripV1: basePath.endsWith('/v1'),
        authHeaders: Object.freeze(authHeaders),
        agent: base.protocol === 'https:' ? agents.https : agents.http,
        dialect: provider.type === 'anthropic' ? 'anthropic' : 'openai',
      }));
    }
  }

  get(name: string): PassthroughRoute {
    const route = this.#byName.get(name);
    if (route === undefined) throw providerNotFound(name);
    return route;
  }
}
