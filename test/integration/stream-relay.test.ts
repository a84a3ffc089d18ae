// Pass-through chat streams (OpenAI and the compatible family): the client gets the provider's
// own bytes, whatever way the upstream cuts them into TCP chunks; the usage chunk is hidden
// from a client that did not ask for it, an error event becomes the contract's, and the audit
// log still stores the stream folded into one chat.completion with its usage.
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtureText } from '../helpers/fixtures.js';
import { MockProvider } from '../helpers/mock-provider.js';
import { chatFoldedPerEvent } from '../helpers/sse.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const RECORDED = fixtureText('recorded/openai/chat_completion_stream.txt');
const CONTENT = RECORDED.slice(0, RECORDED.lastIndexOf('data: [DONE]'));
const USAGE_EVENT =
  'data: {"id":"chatcmpl-D0q8CZXN1uEzngZGkU7FuV92lnXWq","object":"chat.completion.chunk","created":1769092764,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":17,"completion_tokens":4,"total_tokens":21}}\n\n';
const DONE_EVENT = 'data: [DONE]\n\n';
const ERROR_EVENT = 'data: {"error":{"message":"the model is overloaded","type":"server_error","code":"overloaded"}}\n\n';

/** Writes `text` in pieces cut at `cuts` (byte offsets), a little apart so they arrive as separate chunks. */
async function sendPieces(res: ServerResponse, text: string, cuts: number[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const bytes = Buffer.from(text, 'utf8');
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut <= from) continue;
    res.write(bytes.subarray(from, cut));
    from = cut;
    await sleep(1);
  }
  res.end();
}

/** Cuts every `step` bytes. */
function every(step: number, text: string): number[] {
  const cuts: number[] = [];
  for (let i = step; i < Buffer.byteLength(text); i += step) cuts.push(i);
  return cuts;
}

/** The stored response body: the admin API answers a JSON body as JSON. */
function body(entry: AuditEntry): { choices: Array<{ message: { content: string } }>; usage: unknown } {
  return entry.response_body as never;
}

interface AuditEntry {
  response_body: unknown;
  input_tokens: number;
  output_tokens: number;
  error: { code: string | null; message: string } | null;
  status: number;
  attempts: Array<{ provider: string; status: number; error: string | null }>;
}

describe('pass-through chat streams @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;
  let upstream = '';
  let cuts: number[] = [];

  before(async () => {
    mock = await MockProvider.start();
    mock.on('POST', '/v1/chat/completions', (_req, res) => sendPieces(res, upstream, cuts));
    gw = await startTestGateway({ env: { OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${mock.url}/v1` } });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });

  async function stream(includeUsage: boolean): Promise<{ text: string; id: string; status: number }> {
    const body = { model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }], ...(includeUsage ? { stream_options: { include_usage: true } } : {}) };
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify(body) });
    return { text: await res.text(), id: res.headers.get('x-request-id')!, status: res.status };
  }

  async function audit(id: string): Promise<AuditEntry> {
    const res = await gw.fetch(`/admin/audit/${id}`);
    expect(res.status).to.equal(200);
    return (await res.json()) as AuditEntry;
  }

  for (const step of [3, 64, 100_000]) {
    it(`forwards the provider's bytes exactly, cut every ${step} bytes, and audits the folded stream`, async () => {
      upstream = CONTENT + USAGE_EVENT + DONE_EVENT;
      cuts = every(step, upstream);
      const { text, id } = await stream(true);
      expect(text).to.equal(upstream);
      const entry = await audit(id);
      expect(body(entry)).to.deep.equal(chatFoldedPerEvent(upstream));
      expect(body(entry).choices[0]!.message.content).to.equal('Hello, World!');
      expect([entry.input_tokens, entry.output_tokens]).to.deep.equal([17, 4]);
    });
  }

  it('reads an event that only looks watched (a token that is the word "error") and forwards it untouched', async () => {
    const lookalike = CONTENT.split('\n\n')[1]!.replace('"content":"Hello"', '"content":"error"') + '\n\n';
    upstream = CONTENT + lookalike + USAGE_EVENT + DONE_EVENT;
    cuts = [];
    const { text, id } = await stream(true);
    expect(text).to.equal(upstream);
    expect(body(await audit(id)).choices[0]!.message.content).to.equal('Hello, World!error');
  });

  it('hides the usage chunk from a client that did not ask, even cut inside "usage":{, and still prices the call', async () => {
    upstream = CONTENT + USAGE_EVENT + DONE_EVENT;
    const usageAt = Buffer.byteLength(CONTENT) + Buffer.from(USAGE_EVENT).indexOf('"usage":{') + 4;
    cuts = [Buffer.byteLength(CONTENT) - 10, usageAt];
    const { text, id } = await stream(false);
    expect(text).to.equal(CONTENT + DONE_EVENT);
    const entry = await audit(id);
    expect([entry.input_tokens, entry.output_tokens]).to.deep.equal([17, 4]);
    expect(body(entry).usage).to.deep.equal({ prompt_tokens: 17, completion_tokens: 4, total_tokens: 21 });
  });

  it("turns an error event cut inside \"error\" into the contract's last event, after the chunks before it", async () => {
    upstream = CONTENT + ERROR_EVENT;
    cuts = [Buffer.byteLength(CONTENT) + 9];
    const { text, id } = await stream(true);
    expect(text.startsWith(CONTENT)).to.equal(true);
    const last = JSON.parse(text.slice(CONTENT.length).replace(/^data: /, '').trim()) as { error: Record<string, unknown> };
    expect(last.error).to.include({ message: 'the model is overloaded', code: 'overloaded', provider: 'openai' });
    expect(text).to.not.include('[DONE]');
    const entry = await audit(id);
    expect(entry.error).to.include({ code: 'overloaded', message: 'the model is overloaded' });
    expect(body(entry).choices[0]!.message.content).to.equal('Hello, World!');
  });

  it('answers an error that comes before any event with a JSON error, the attempt recording it (nothing had been sent)', async () => {
    upstream = ERROR_EVENT + DONE_EVENT;
    cuts = [];
    const { text, id, status } = await stream(true);
    expect([status, JSON.parse(text)]).to.deep.equal([502, { error: { message: 'the model is overloaded', type: 'provider_error', code: 'overloaded', param: null, provider: 'openai' } }]);
    const entry = await audit(id);
    expect([entry.status, entry.error?.code, entry.attempts.map((t) => [t.provider, t.status, t.error])]).to.deep.equal([502, 'overloaded', [['openai', 502, 'the model is overloaded']]]);
  });

  it('keeps CRLF framing and comments as sent, ends a last event without its blank line, and adds the missing [DONE]', async () => {
    const crlf = ': keep-alive\r\n\r\n' + CONTENT.replace(/\n\n/g, '\r\n\r\n');
    const last = USAGE_EVENT.trimEnd();
    upstream = crlf + last;
    cuts = every(50, upstream);
    const { text, id } = await stream(true);
    expect(text).to.equal(crlf + last + '\n\n' + DONE_EVENT);
    const entry = await audit(id);
    expect(body(entry)).to.deep.equal(chatFoldedPerEvent(upstream));
    expect([entry.input_tokens, entry.output_tokens]).to.deep.equal([17, 4]);
  });

  it('audits only what the client got when an event that is not a chunk stops the stream', async () => {
    const [first, second] = CONTENT.split('\n\n');
    upstream = `${first}\n\n${second}\n\ndata: {"id":"c","usage":{"prompt_tokens":1}}\n\n${CONTENT.split('\n\n')[2]}\n\n${DONE_EVENT}`;
    cuts = [];
    const { text, id } = await stream(true);
    expect(text.startsWith(`${first}\n\n${second}\n\ndata: {"error":`)).to.equal(true);
    expect(text).to.not.include('[DONE]');
    expect(body(await audit(id)).choices[0]!.message.content).to.equal('Hello');
  });

  it("relays vLLM's error shape as the contract's error event, with its status and message", async () => {
    upstream = CONTENT + 'data: {"object":"error","message":"This model\'s maximum context length is 4096 tokens","type":"BadRequestError","param":null,"code":400}\n\n';
    cuts = [];
    const { text, id } = await stream(true);
    const last = JSON.parse(text.slice(CONTENT.length).replace(/^data: /, '').trim()) as { error: Record<string, unknown> };
    // A provider's own 4xx keeps its meaning, and the error is the last event (docs/api.md, "Errors").
    expect(last.error).to.include({ message: "This model's maximum context length is 4096 tokens", type: 'invalid_request_error', provider: 'openai' });
    expect(text).to.not.include('[DONE]');
    const entry = await audit(id);
    expect(entry.error).to.include({ message: "This model's maximum context length is 4096 tokens" });
    expect(entry.status).to.equal(200);
  });

  it('ends with exactly one [DONE]: none added after the upstream one, even with a comment after it; one added when a token reads [DONE]', async () => {
    upstream = CONTENT + DONE_EVENT + ': bye\n\n';
    cuts = [];
    expect((await stream(true)).text).to.equal(upstream);
    const token = CONTENT.split('\n\n')[1]!.replace('"content":"Hello"', '"content":"[DONE]"') + '\n\n';
    upstream = CONTENT + token;
    expect((await stream(true)).text).to.equal(upstream + DONE_EVENT);
  });

  it('reads a usage chunk whose key hides behind an escape: hidden from the client, and priced', async () => {
    const escaped = USAGE_EVENT.replace('"usage":', '"us\\u0061ge":');
    upstream = CONTENT + escaped + DONE_EVENT;
    cuts = [];
    const { text, id } = await stream(false);
    expect(text).to.equal(CONTENT + DONE_EVENT);
    const entry = await audit(id);
    expect([entry.input_tokens, entry.output_tokens]).to.deep.equal([17, 4]);
  });

  it('forwards a comment line that looks watched', async () => {
    upstream = ': {"error": "not really"}\n\n' + CONTENT + DONE_EVENT;
    cuts = [];
    expect((await stream(true)).text).to.equal(upstream);
  });

  it('the openai SDK reads a cut-up stream as the provider sent it', async () => {
    upstream = CONTENT + USAGE_EVENT + DONE_EVENT;
    cuts = every(23, upstream);
    const chunks = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let content = '';
    let usageChunks = 0;
    for await (const chunk of chunks) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usageChunks++;
    }
    expect(content).to.equal('Hello, World!');
    expect(usageChunks).to.equal(0);
  });
});
