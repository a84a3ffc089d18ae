// Starts a gateway in-process on 127.0.0.1:0 with an inline config and a fresh data directory,
// and hands back an official `openai` SDK client pointed at it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { loadConfig, mergeConfig } from '../../core/config.js';
import { startGateway } from '../../core/gateway.js';
import type { RunningGateway } from '../../core/gateway.js';
import { createLogger } from '../../core/logger.js';
import type { Logger } from '../../core/logger.js';
import { AUDIT_ON_POSTGRES, auditOnPostgres } from './postgres.js';

export const MASTER_KEY = 'sk-test-master-0123456789';

export interface TestGateway {
  url: string;
  /** `<url>/v1`, the base URL clients use. */
  baseURL: string;
  masterKey: string;
  dataDir: string;
  running: RunningGateway;
  /** An openai SDK client authenticated with the master key (no retries: tests assert single calls). */
  client(apiKey?: string): OpenAI;
  /** fetch against the gateway with the master key unless headers say otherwise. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Config merged over the defaults (as an operator's YAML file would be). */
  config?: Record<string, unknown>;
  /** Environment seen by the config (provider variables, tagging headers). Nothing of process.env leaks in. */
  env?: Record<string, string>;
  /** Keep the data directory (to restart on it). */
  dataDir?: string;
  /** The operator's log (default: errors only, to the console); tests that assert on it pass their own. */
  logger?: Logger;
}

export async function startTestGateway(options: StartOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sluice-test-'));
  // drain_grace_ms 0: close() does not hold kept-alive connections open a second (tests of the drain set it).
  const base = { server: { host: '127.0.0.1', port: 0, shutdown_timeout_ms: 2000, drain_grace_ms: 0 }, data_dir: dataDir, master_key: MASTER_KEY, log: { level: 'error' } };
  // Merged key by key like an operator's file, so `server: { body_limit_bytes }` keeps 127.0.0.1:0.
  const config = mergeConfig(base, options.config ?? {}) as Record<string, unknown>;
  let running: RunningGateway;
  try {
    const loaded = loadConfig({ overrides: config, env: options.env ?? {} });
    if (AUDIT_ON_POSTGRES) loaded.config.plugins = auditOnPostgres(loaded.config.plugins, dataDir);
    running = await startGateway(loaded, options.logger ?? createLogger('error'));
  } catch (err) {
    // Tests of startup errors must not leave data directories behind.
    if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const url = running.url;
  let closed = false;
  return {
    url,
    baseURL: `${url}/v1`,
    masterKey: MASTER_KEY,
    dataDir,
    running,
    client: (apiKey = MASTER_KEY) => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0, timeout: 15_000 }),
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${MASTER_KEY}`);
      if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(url + path, { ...init, headers });
    },
    async close() {
      if (closed) return;
      closed = true;
      await running.close();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
