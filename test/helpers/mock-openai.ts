// A mock of OpenAI's HTTP API serving payloads recorded from the real one: models, chat
// (JSON and SSE, with the usage chunk when asked), responses (JSON and SSE), compaction and
// embeddings (float and base64). Tests override single routes to script failures.
import { fixtureJson, fixtureText } from './fixtures.js';
import { MockProvider, sendJson, sendSse, splitSse } from './mock-provider.js';

export const OPENAI_KEY = 'sk-upstream-openai-key';

const USAGE_CHUNK = {
  id: 'chatcmpl-D0q8CZXN1uEzngZGkU7FuV92lnXWq',
  object: 'chat.completion.chunk',
  created: 1769092764,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [],
  usage: { prompt_tokens: 17, completion_tokens: 4, total_tokens: 21, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } },
};

export function floatVector(seed: number, dims = 8): number[] {
  return Array.from({ length: dims }, (_, i) => Math.round(Math.sin(seed + i) * 1e6) / 1e6);
}

export async function startOpenAIMock(): Promise<MockProvider> {
  const mock = await MockProvider.start();
  const streamEvents = splitSse(fixtureText('recorded/openai/chat_completion_stream.txt'));
  mock.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, fixtureJson('recorded/openai/models.json')));
  mock.on('POST', '/v1/chat/completions', async (req, res) => {
    const body = req.json as { stream?: boolean; stream_options?: { include_usage?: boolean } };
    if (!body.stream) return sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
    const events = streamEvents.slice(0, -1);
    if (body.stream_options?.include_usage) events.push(`data: ${JSON.stringify(USAGE_CHUNK)}\n\n`);
    events.push('data: [DONE]\n\n');
    await sendSse(res, events);
  });
  mock.on('POST', '/v1/responses', async (req, res) => {
    const body = req.json as { stream?: boolean };
    if (!body.stream) return sendJson(res, 200, fixtureJson('recorded/openai/responses.json'));
    await sendSse(res, splitSse(fixtureText('recorded/openai/responses_stream.txt')));
  });
  mock.on('POST', '/v1/responses/compact', (_req, res) =>
    sendJson(res, 200, {
      id: 'resp_compact_1',
      object: 'response.compaction',
      created_at: 1772295300,
      output: [{ id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAA-opaque' }],
      usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    }),
  );
  mock.on('POST', '/v1/embeddings', (req, res) => {
    const body = req.json as { input: string | string[]; encoding_format?: string };
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    const data = inputs.map((_t, index) => {
      const v = floatVector(index);
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
      return { object: 'embedding', index, embedding };
    });
    sendJson(res, 200, { object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 5 * inputs.length, total_tokens: 5 * inputs.length } });
  });
  return mock;
}

/** Gateway env that enables the `openai` provider against the mock. */
export function openAIEnv(mock: MockProvider): Record<string, string> {
  return { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${mock.url}/v1` };
}
