// Test-only: a gateway in a process of its own, so tests can run two replicas that share
// nothing but Redis. Its client is the openai SDK, like the in-process test gateway's.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import OpenAI from 'openai';
import type { StartOptions } from '../../test/helpers/start-gateway.js';

const MAIN = new URL('./test-child-gateway-main.ts', import.meta.url).pathname;

export interface ChildGateway {
  url: string;
  client(apiKey: string): OpenAI;
  close(): Promise<void>;
}

export async function startChildGateway(options: StartOptions): Promise<ChildGateway> {
  const child = fork(MAIN, [], {
    execArgv: ['--import', 'tsx'],
    env: { PATH: process.env['PATH'] ?? '', SLUICE_TEST_GATEWAY: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(() => Promise.reject(new Error('the child gateway exited before it was ready')))])) as [{ url: string }];
  const url = message.url;
  return {
    url,
    client: (apiKey) => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0, timeout: 15_000 }),
    async close() {
      if (child.exitCode !== null) return;
      child.send('close');
      await once(child, 'exit');
    },
  };
}
