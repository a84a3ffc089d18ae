// Test-only: a redis-server of the test's own on a free port (to stop and start again), and the
// cleanup of a shared Redis's keys under a test run's prefix.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient } from '@keyv/redis';

export const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';

export class TestRedisServer {
  readonly port: number;
  #process: ChildProcess | null = null;

  private constructor(port: number) {
    this.port = port;
  }

  static async start(): Promise<TestRedisServer> {
    const server = new TestRedisServer(await freePort());
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server (again) on the same port, empty. */
  async resume(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.#process = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}): ${output}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.#process;
    if (child === null || child.exitCode !== null) return;
    this.#process = null;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Deletes every key of the shared Redis under `prefix`. */
export async function deleteKeys(prefix: string): Promise<void> {
  const client = createClient({ url: SHARED_REDIS_URL });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys);
  } finally {
    await client.close();
  }
}
