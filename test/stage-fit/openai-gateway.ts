// The setup every stage-fit test shares: the OpenAI mock, and a gateway in front of it whose
// config the test gives (its plugin list, with the test plugin loaded by path).
import { fileURLToPath } from 'node:url';
import { OPENAI_KEY, startOpenAIMock } from '../helpers/mock-openai.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

export interface OpenAIGateway {
  mock: MockProvider;
  gw: TestGateway;
}

/** Started before the describe block's tests and closed after them; `config` may read the mock. */
export function openAIGateway(config: (mock: MockProvider) => Record<string, unknown>): OpenAIGateway {
  const fit = {} as OpenAIGateway;
  before(async () => {
    fit.mock = await startOpenAIMock();
    fit.gw = await startTestGateway({ config: config(fit.mock), env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${fit.mock.url}/v1` } });
  });
  after(async () => {
    await fit.gw?.close();
    await fit.mock?.close();
  });
  return fit;
}

/** The `plugins:` entry that loads a test plugin beside this file by its file name, with options. */
export function testPlugin(file: string, options?: Record<string, unknown>): { path: string; options?: Record<string, unknown> } {
  const path = fileURLToPath(new URL(file, import.meta.url));
  return options === undefined ? { path } : { path, options };
}

/** How many chat calls the mock answered. */
export function chatCalls(mock: MockProvider): number {
  return mock.requests.filter((r) => r.path === '/v1/chat/completions').length;
}
