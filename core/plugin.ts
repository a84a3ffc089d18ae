// The plugin contract: a plugin is a name, an optional options schema, optional dependencies
// and a `setup` that taps stages, adds routes and registers providers. Setup runs once at
// boot; nothing is tapped afterwards.
import type { AsyncSeriesHook } from 'tapable';
import type { LoadedConfig } from './config.js';
import type { RequestContext } from './context.js';
import type { Logger } from './logger.js';
import type { Provider, ProviderRegistry, Target } from './provider.js';
import type { ProviderEnvSpec, ProviderInstanceConfig } from './provider-config.js';
import type { Reply } from './reply.js';
import type { RouteSpec } from './routes.js';
import type { Stages } from './stages.js';
import type { UpstreamClient } from './http-client.js';

/** Services plugins offer one another (a key store, a call store), declared by augmentation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface GatewayServices {}

export interface Lifecycle {
  /** After every plugin's setup, before the server listens. */
  ready: AsyncSeriesHook<[]>;
  /** On shutdown, after in-flight requests finished: flush and close. */
  close: AsyncSeriesHook<[]>;
}

/** What a plugin's setup receives. */
export interface Gateway {
  readonly stages: Stages;
  readonly lifecycle: Lifecycle;
  readonly loaded: LoadedConfig;
  readonly providers: ProviderRegistry;
  readonly upstream: UpstreamClient;
  readonly logger: Logger;
  /** Absolute path of the data directory (created at boot). */
  readonly dataDir: string;
  readonly services: Partial<GatewayServices>;
  addRoute(route: Partial<RouteSpec> & Pick<RouteSpec, 'method' | 'path' | 'access'>): void;
  registerProvider(provider: Provider): void;
  /** Enabled instances of a provider type, from config and environment. */
  providerInstances(spec: ProviderEnvSpec): ProviderInstanceConfig[];
  /** Call a target's handler for the request's operation (failover calls it per attempt). */
  invoke(ctx: RequestContext, target: Target): Promise<Reply>;
  /**
   * A line of the startup summary (`store`, `dashboard`, `metrics`, `providers` with their model
   * counts); told after the gateway started, it is logged at once.
   */
  describe(topic: string, detail: string): void;
}

export interface PluginDefinition<Options = undefined> {
  /** Unique; taps are named after it. */
  name: string;
  /** Plugins that must be enabled and set up before this one. */
  dependsOn?: string[];
  /** JSON schema of the options (ajv); defaults in it are applied. */
  schema?: object;
  setup(gw: Gateway, options: Options): void | Promise<void>;
}

/** Identity function that gives plugin authors type inference and checking. */
export function definePlugin<Options = undefined>(definition: PluginDefinition<Options>): PluginDefinition<Options> {
  return definition;
}
