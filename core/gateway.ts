// Assembles a gateway from a loaded config: stages, registries, plugins (set up once, in
// dependency order), then freezes the pipeline and opens the server.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { AsyncSeriesHook } from 'tapable';
import { API_ROUTES } from './api-routes.js';
import type { LoadedConfig } from './config.js';
import { StartupError, isStartupError } from './config-error.js';
import type { RequestContext } from './context.js';
import { UpstreamClient } from './http-client.js';
import type { Logger } from './logger.js';
import { AccessLog } from './access-log.js';
import { credentialValues, operatorLogger } from './operator-logger.js';
import { SecretText } from './secret-text.js';
import { Pipeline } from './pipeline.js';
import type { Gateway, GatewayServices, Lifecycle } from './plugin.js';
import { loadPlugins } from './plugin-loader.js';
import { ProviderRegistry } from './provider.js';
import type { Provider, Target } from './provider.js';
import { resolveProviderInstances } from './provider-config.js';
import type { ProviderEnvSpec } from './provider-config.js';
import type { Reply } from './reply.js';
import { sendJson } from './respond.js';
import { RouteTable } from './routes.js';
import type { RouteSpec } from './routes.js';
import { GatewayServer } from './server.js';
import { ORDER, createStages, stageRunners } from './stages.js';
import { StartupSummary } from './startup-summary.js';

export interface RunningGateway {
  readonly gateway: Gateway;
  readonly address: AddressInfo;
  /** `http://host:port` */
  readonly url: string;
  /** Graceful shutdown: drain, flush (lifecycle.close), close upstream pools. */
  close(): Promise<void>;
}

const SETUP_TIMEOUT_MS = 15_000;

export async function startGateway(loaded: LoadedConfig, logger: Logger = operatorLogger(loaded)): Promise<RunningGateway> {
  const { config } = loaded;
  const dataDir = resolve(config.data_dir);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new StartupError('SLUICE_ERR_DATA_DIR', `data_dir: cannot create ${dataDir}: ${(err as Error).message}`, err);
  }
  const stages = createStages();
  const lifecycle: Lifecycle = { ready: new AsyncSeriesHook<[]>(), close: new AsyncSeriesHook<[]>() };
  const providers = new ProviderRegistry();
  const routes = new RouteTable();
  const upstream = new UpstreamClient(config.upstream, logger);
  const services: Partial<GatewayServices> = {};
  let pipeline: Pipeline | null = null;
  let server: GatewayServer | null = null;
  const summary = new StartupSummary(logger);

  for (const route of API_ROUTES) routes.add(route);
  routes.add(handlerRoute('/healthz', async (ctx) => sendJson(ctx, 200, { status: 'ok' })));
  routes.add(handlerRoute('/readyz', async (ctx) => {
    const ready = server !== null && !server.draining;
    sendJson(ctx, ready ? 200 : 503, { status: ready ? 'ready' : 'draining' });
  }));

  const gateway: Gateway = {
    stages,
    lifecycle,
    loaded,
    providers,
    upstream,
    logger,
    dataDir,
    services,
    addRoute(route) {
      routes.add({ operation: null, body: route.operation ? 'json' : 'none', streamFormat: null, handler: null, ...route });
    },
    registerProvider(provider: Provider) {
      providers.register(provider);
    },
    providerInstances(spec: ProviderEnvSpec) {
      return resolveProviderInstances(loaded, spec);
    },
    invoke(ctx: RequestContext, target: Target): Promise<Reply> {
      return pipeline!.invoke(ctx, target);
    },
    describe(topic: string, detail: string) {
      summary.note(topic, detail);
    },
  };

  const plugins = await loadPlugins(loaded);
  for (const plugin of plugins) {
    const child = logger.child({ plugin: plugin.definition.name });
    try {
      await withTimeout(Promise.resolve(plugin.definition.setup({ ...gateway, logger: child }, plugin.options)), SETUP_TIMEOUT_MS, plugin.where);
    } catch (err) {
      if (isStartupError(err)) throw err;
      throw new StartupError('SLUICE_ERR_PLUGIN_SETUP', `${loaded.source}: ${plugin.where}: setup failed: ${(err as Error).message}`, err);
    }
  }
  if (config.log.access) {
    const access = new AccessLog(logger.child({ access: true }));
    stages.log.tap({ name: 'access-log', stage: ORDER.LAST }, (ctx) => access.record(ctx));
  }
  await lifecycle.ready.promise();
  Object.freeze(services);

  pipeline = new Pipeline(stages, stageRunners(stages), providers, config.server.body_limit_bytes, logger, new SecretText(credentialValues(loaded)));
  server = new GatewayServer(routes, pipeline, config.server.keep_alive_timeout_ms ?? 65_000);
  const address = await server.listen(config.server.port, config.server.host);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
  summary.print({ url: `http://${host}:${address.port}`, providers: [...providers].map((p) => p.name), plugins: plugins.map((p) => p.definition.name), dataDir });
  let closing: Promise<void> | null = null;
  return {
    gateway,
    address,
    url,
    close() {
      closing ??= (async () => {
        await server!.drain(config.server.shutdown_timeout_ms, config.server.drain_grace_ms ?? 1000);
        await lifecycle.close.promise();
        await upstream.close();
      })();
      return closing;
    },
  };
}

function handlerRoute(path: string, handler: RouteSpec['handler']): RouteSpec {
  return { method: 'GET', path, access: 'public', operation: null, body: 'none', streamFormat: null, handler };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish setup within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
