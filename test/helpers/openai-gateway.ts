// A gateway in front of the OpenAI mock for one describe block: both started before its tests,
// closed after them, and the mock's record of requests cleared before each test.
import { openAIEnv, startOpenAIMock } from './mock-openai.js';
import type { MockProvider } from './mock-provider.js';
import { startTestGateway } from './start-gateway.js';
import type { TestGateway } from './start-gateway.js';

export interface OpenAIGateway {
  mock: MockProvider;
  gw: TestGateway;
}

/**
 * Call inside a describe block; the fields are set once its `before` hook has run. `config` is
 * merged over the defaults (a plugin list, more providers) and may script the mock first.
 */
export function withOpenAIGateway(config?: (mock: MockProvider) => Record<string, unknown>): OpenAIGateway {
  const started = {} as OpenAIGateway;
  before(async () => {
    started.mock = await startOpenAIMock();
    started.gw = await startTestGateway({ config: config?.(started.mock), env: openAIEnv(started.mock) });
  });
  after(async () => {
    await started.gw.close();
    await started.mock.close();
  });
  beforeEach(() => started.mock.reset());
  return started;
}
