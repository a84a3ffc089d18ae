// Two OpenAI mocks for failover paths: the usual one (recorded payloads), and one whose chat
// always fails with a 500, enabled as the provider `broken` (the scripted-features plugin's
// `x-test-failover: broken` tries it first).
import type { MockProvider } from './mock-provider.js';
import { sendJson } from './mock-provider.js';
import { startOpenAIMock } from './mock-openai.js';

export interface FailoverMocks {
  mock: MockProvider;
  broken: MockProvider;
  /** The config's `providers:` entry that enables `broken`. */
  providers: Record<string, unknown>;
  close(): Promise<void>;
}

export async function startFailoverMocks(): Promise<FailoverMocks> {
  const mock = await startOpenAIMock();
  const broken = await startOpenAIMock();
  broken.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 500, { error: { message: 'scripted outage', type: 'server_error' } }));
  return {
    mock,
    broken,
    providers: { broken: { type: 'openai', base_url: `${broken.url}/v1`, api_key: 'sk-broken-upstream' } },
    async close() {
      await mock.close();
      await broken.close();
    },
  };
}

/** For a mocha suite: the mocks start before its tests and close after them. */
export function failoverMocksForSuite(): () => FailoverMocks {
  let mocks: FailoverMocks | null = null;
  before(async () => {
    mocks = await startFailoverMocks();
  });
  after(() => mocks?.close());
  return () => mocks!;
}
