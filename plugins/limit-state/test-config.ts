// Test-only: gateway configs for budget and rate-limit tests: the shipped plugins, the test key
// store with the given keys, and the limit plugins with their options; plus a delayed mock answer.
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { sendJson } from '../../test/helpers/mock-provider.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { TEST_KEYS_FILE } from './test-keys.js';
import type { TestKey } from './test-keys.js';

export interface LimitPlugins {
  budget?: Record<string, unknown>;
  ratelimit?: Record<string, unknown>;
}

export function limitConfig(keys: Record<string, TestKey>, plugins: LimitPlugins, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const list: unknown[] = [...defaultPlugins(), { path: TEST_KEYS_FILE, options: { keys } }];
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
