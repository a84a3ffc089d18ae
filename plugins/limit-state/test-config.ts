// Test-only: gateway configs for budget and rate-limit tests: the shipped plugins, the test key
// store with the given keys, and only the limit plugins a test asks for, with its options; a
// gateway per test in front of a mock of its own; and a delayed mock answer.
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { sendJson } from '../../test/helpers/mock-provider.js';
import { defaultPlugins, withPluginOptions } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { TEST_CACHE_FILE } from './test-cache.js';
import { TEST_KEYS_FILE } from './test-keys.js';
import type { TestKey } from './test-keys.js';

export interface LimitPlugins {
  budget?: Record<string, unknown>;
  ratelimit?: Record<string, unknown>;
  /** Add the test cache (test-cache.ts). */
  cache?: boolean;
  /** The router's options (virtual models, prices). */
  router?: Record<string, unknown>;
  /** Add the failover plugin with these options. */
  failover?: Record<string, unknown>;
}

const LIMIT_PLUGINS: ReadonlySet<string> = new Set(['budget', 'ratelimit']);

export function limitConfig(keys: Record<string, TestKey>, plugins: LimitPlugins, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const routed = plugins.router === undefined ? defaultPlugins() : withPluginOptions('router', plugins.router);
  const shipped = routed.filter((p) => !LIMIT_PLUGINS.has(typeof p === 'string' ? p : (p.name ?? '')));
  const list: unknown[] = [...shipped, { path: TEST_KEYS_FILE, options: { keys } }];
  if (plugins.cache === true) list.push({ path: TEST_CACHE_FILE });
  if (plugins.failover !== undefined) list.push({ name: 'failover', options: plugins.failover });
  if (plugins.ratelimit !== undefined) list.push({ name: 'ratelimit', options: plugins.ratelimit });
  if (plugins.budget !== undefined) list.push({ name: 'budget', options: plugins.budget });
  return { ...extra, plugins: list };
}

/** The mock's chat answer (17 prompt and 4 completion tokens) after `ms`, so concurrent calls overlap. */
export function slowChat(mock: MockProvider, ms: number): void {
  mock.on('POST', '/v1/chat/completions', async (_req, res) => {
    await sleep(ms);
    sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
  });
}

/** A key prefix no other test run uses, for a shared Redis. */
export function uniquePrefix(): string {
  return `sluice-test:${process.pid}:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
}

export interface LimitGateway {
  /** The OpenAI mock of the current test (a fresh one per test, so a test may script its routes). */
  mock: MockProvider;
  /** Starts the test's gateway in front of the mock; it is closed after the test. `config`: more of it (providers). */
  start(keys: Record<string, TestKey>, plugins: LimitPlugins, options?: { env?: Record<string, string>; dataDir?: string; config?: Record<string, unknown> }): Promise<TestGateway>;
  /** Forgets the gateway: the test closed it itself. */
  forget(): void;
}

/** Call inside a describe block: a mock per test, and the gateway a test starts closed after it. */
export function withLimitGateway(): LimitGateway {
  let gw: TestGateway | null = null;
  const state: LimitGateway = {
    mock: null as unknown as MockProvider,
    async start(keys, plugins, options = {}) {
      gw = await startTestGateway({ config: limitConfig(keys, plugins, options.config), env: { ...openAIEnv(state.mock), ...options.env }, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
      return gw;
    },
    forget() {
      gw = null;
    },
  };
  beforeEach(async () => {
    state.mock = await startOpenAIMock();
  });
  afterEach(async () => {
    await gw?.close();
    gw = null;
    await state.mock.close();
  });
  return state;
}
