// The passthrough plugin's parts on their own: where a path goes, which headers go each way,
// what is kept of a body, and the usage read from each provider's answers (recorded fixtures).
import { expect } from 'chai';
import { Agent, IncomingMessage, OutgoingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { isGatewayError } from '../../core/errors.js';
import type { Provider } from '../../core/provider.js';
import { SseParser } from '../../core/stream/sse-parser.js';
import { fixtureJson, fixtureText } from '../../test/helpers/fixtures.js';
import { bodyKind } from './body-kind.js';
import { ByteCapture } from './byte-capture.js';
import type { PassthroughRoute } from './passthrough-targets.js';
import { RequestHeaderPolicy } from './request-headers.js';
import { requestModel } from './request-model.js';
import { ResponseBody } from './response-body.js';
import { copyResponseHeaders } from './response-headers.js';
import { IGNORING_SINK, SseUsage } from './sse-usage.js';
import { TailWindow } from './tail-window.js';
import { upstreamUrl } from './upstream-url.js';
import { usageFromTail } from './tail-usage.js';
import { usageOf } from './usage-of.js';
import type { UsageDialect } from './usage-of.js';

const PROVIDER: Provider = { name: 'openai', type: 'openai', operations: {} };

function route(origin: string, basePath: string): PassthroughRoute {
  return { provider: PROVIDER, origin, basePath, stripV1: basePath.endsWith('/v1'), authHeaders: {}, agent: new Agent(), dialect: 'openai' };
}

/** The usage the core's SseParser finds in a transcript, fed in pieces of `piece` bytes. */
function sseUsage(transcript: string, dialect: UsageDialect, piece = 7): unknown {
  const parser = new SseParser();
  const reader = new SseUsage(dialect);
  const bytes = Buffer.from(transcript);
  for (let i = 0; i < bytes.length; i += piece) parser.feed(bytes.subarray(i, i + piece), reader, IGNORING_SINK);
  parser.end(reader, IGNORING_SINK);
  return reader.usage;
}

const CHAT_USAGE = {
  input_tokens: 17,
  output_tokens: 4,
  total_tokens: 21,
  cached_input_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  audio_input_tokens: 0,
  audio_output_tokens: 0,
};

function refused(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    if (!isGatewayError(err)) throw err;
    return { status: err.status, type: err.type, code: err.code, message: err.message };
  }
  throw new Error('expected a refusal');
}

describe('passthrough: the provider URL', () => {
  const openai = route('https://api.openai.com', '/v1');
  const anthropic = route('https://api.anthropic.com', '');

  it('drops a leading v1/ when the base URL ends in /v1, and keeps the query string', () => {
    expect(upstreamUrl(openai, 'files', '').href).to.equal('https://api.openai.com/v1/files');
    expect(upstreamUrl(openai, 'v1/files', '').href).to.equal('https://api.openai.com/v1/files');
    expect(upstreamUrl(openai, 'v1/files/file-1/content', '?limit=2&after=x%2Fy').href).to.equal('https://api.openai.com/v1/files/file-1/content?limit=2&after=x%2Fy');
    expect(upstreamUrl(openai, 'v1', '').href).to.equal('https://api.openai.com/v1');
    expect(upstreamUrl(openai, '', '?a=1').href).to.equal('https://api.openai.com/v1?a=1');
  });

  it('keeps the path whole under a base URL without /v1', () => {
    expect(upstreamUrl(anthropic, 'v1/messages', '').href).to.equal('https://api.anthropic.com/v1/messages');
    expect(upstreamUrl(route('https://example.azure.com', '/openai'), 'deployments/d1/chat/completions', '?api-version=2024-10-21').href)
      .to.equal('https://example.azure.com/openai/deployments/d1/chat/completions?api-version=2024-10-21');
  });

  it('keeps percent-encoding as received', () => {
    expect(upstreamUrl(openai, 'v1/models/ft%3Agpt-4o%2Fx', '').pathname).to.equal('/v1/models/ft%3Agpt-4o%2Fx');
  });

  it('never leaves the provider: a path starting with // stays a path', () => {
    const url = upstreamUrl(anthropic, '/evil.example/x', '');
    expect(url.origin).to.equal('https://api.anthropic.com');
    expect(url.pathname).to.equal('//evil.example/x');
  });

  for (const rest of ['..', 'v1/../admin', 'v1/%2e%2E/admin', '%2E/x', 'v1/..\\admin', 'v1/.%2e', 'v1/.\t./x', './models']) {
    it(`refuses the dot segments of ${JSON.stringify(rest)}`, () => {
      expect(refused(() => upstreamUrl(openai, rest, ''))).to.deep.equal({
        status: 400, type: 'invalid_request_error', code: 'invalid_path', message: 'a passthrough path may not contain . or .. segments',
      });
    });
  }

  it('accepts dots inside a segment', () => {
    expect(upstreamUrl(openai, 'v1/files/a..b/.well', '').pathname).to.equal('/v1/files/a..b/.well');
  });
});

describe('passthrough: request headers', () => {
  function outgoing(headers: Record<string, string>): OutgoingMessage {
    const message = new OutgoingMessage();
    for (const name in headers) message.setHeader(name, headers[name]!);
    return message;
  }

  const client: Record<string, string> = {
    host: 'gateway.example',
    authorization: 'Bearer sk-gateway-key',
    'x-api-key': 'client-key',
    'api-key': 'client-key',
    'x-goog-api-key': 'client-key',
    cookie: 'session=abc',
    connection: 'keep-alive, X-Hop-Secret',
    'keep-alive': 'timeout=5',
    'x-hop-secret': 'hop',
    te: 'trailers',
    trailer: 'x-checksum',
    'transfer-encoding': 'chunked',
    upgrade: 'h2c',
    'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
    'proxy-connection': 'keep-alive',
    expect: '100-continue',
    'accept-encoding': 'gzip, br',
    'x-openwebui-user-id': 'u-42',
    'x-openwebui-user-email': 'ann@example.com',
    'content-type': 'application/json',
    'anthropic-beta': 'tools-2024',
    'x-custom': 'kept',
  };

  it("keeps what the provider may see and puts the provider credential in place of the client's", () => {
    const message = outgoing({ ...client, host: 'api.openai.com' });
    new RequestHeaderPolicy(['x-openwebui-user-email']).apply(message, client, { authorization: 'Bearer sk-upstream' });
    expect(message.getHeaders()).to.deep.equal({
      host: 'api.openai.com',
      'transfer-encoding': 'chunked',
      authorization: 'Bearer sk-upstream',
      'x-openwebui-user-id': 'u-42',
      'content-type': 'application/json',
      'anthropic-beta': 'tools-2024',
      'x-custom': 'kept',
    });
  });

  it("lets a client's anthropic-version stand, and fills it in when absent; the key always wins", () => {
    const provider = { 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-06-01' };
    const own = outgoing({ 'x-api-key': 'client-key', 'anthropic-version': '2023-01-01' });
    new RequestHeaderPolicy([]).apply(own, {}, provider);
    expect(own.getHeaders()).to.deep.equal({ 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-01-01' });
    const none = outgoing({});
    new RequestHeaderPolicy([]).apply(none, {}, provider);
    expect(none.getHeaders()).to.deep.equal({ 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-06-01' });
  });
});

describe('passthrough: response headers', () => {
  it("passes the provider's headers but hop-by-hop ones and cookies; the gateway's own win", () => {
    const from = new IncomingMessage(new Socket());
    from.headers = {
      'content-type': 'application/json',
      'content-length': '12',
      connection: 'keep-alive, x-hop',
      'x-hop': '1',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'proxy-authenticate': 'Basic',
      'set-cookie': ['__cf_bm=1; path=/'],
      'x-request-id': 'req_provider_1',
      'x-ratelimit-remaining-requests': '499',
      'openai-processing-ms': '120',
    };
    const to = new ServerResponse(new IncomingMessage(new Socket()));
    to.setHeader('x-request-id', 'gateway-id');
    to.setHeader('x-ratelimit-remaining-requests', '9');
    copyResponseHeaders(from, to);
    expect(to.getHeaders()).to.deep.equal({
      'x-request-id': 'gateway-id',
      'x-ratelimit-remaining-requests': '9',
      'content-type': 'application/json',
      'content-length': '12',
      'x-provider-request-id': 'req_provider_1',
      'openai-processing-ms': '120',
    });
  });
});

describe('passthrough: what is kept of a body', () => {
  it('keeps the first bytes up to the limit and counts the rest', () => {
    const capture = new ByteCapture(5);
    expect(capture.bytes()).to.equal(null);
    capture.add(Buffer.from('abc'));
    capture.add(Buffer.from('defg'));
    capture.add(Buffer.from('hij'));
    expect(capture.bytes()!.toString()).to.equal('abcde');
    expect(capture.total).to.equal(10);
    expect(capture.truncated).to.equal(true);
  });

  it('is not truncated at exactly the limit, and keeps nothing with a limit of 0', () => {
    const exact = new ByteCapture(3);
    exact.add(Buffer.from('abc'));
    expect([exact.bytes()!.toString(), exact.truncated]).to.deep.equal(['abc', false]);
    const none = new ByteCapture(0);
    none.add(Buffer.from('abc'));
    expect([none.bytes()!.length, none.total, none.truncated]).to.deep.equal([0, 3, true]);
  });

  it('keeps at least the last bytes of a body in its tail window', () => {
    const tail = new TailWindow(4);
    for (const part of ['abc', 'def', 'gh', 'ijklm']) tail.add(Buffer.from(part));
    expect(tail.text()).to.equal('jklm');
  });

  it('tells how an answer is read from its headers', () => {
    expect(bodyKind({ 'content-type': 'text/event-stream; charset=utf-8' })).to.equal('sse');
    expect(bodyKind({ 'content-type': 'application/json' })).to.equal('json');
    expect(bodyKind({ 'content-type': 'application/problem+json' })).to.equal('json');
    expect(bodyKind({ 'content-type': 'application/json', 'content-encoding': 'gzip' })).to.equal('opaque');
    expect(bodyKind({ 'content-type': 'audio/mpeg' })).to.equal('opaque');
    expect(bodyKind({})).to.equal('opaque');
  });
});

describe('passthrough: the model of a request', () => {
  const body = Buffer.from('{"model":"gpt-4o-mini","messages":[]}');
  it('reads it from a JSON body kept whole, and from a Gemini path otherwise', () => {
    expect(requestModel(body, true, 'application/json', '/v1/chat/completions')).to.equal('gpt-4o-mini');
    expect(requestModel(body, false, 'application/json', '/v1/chat/completions')).to.equal(null);
    expect(requestModel(body, true, 'text/plain', '/v1/chat/completions')).to.equal(null);
    expect(requestModel(Buffer.from('{"contents":[]}'), true, 'application/json', '/v1beta/models/gemini-2.5-flash:streamGenerateContent')).to.equal('gemini-2.5-flash');
    expect(requestModel(null, true, undefined, '/v1/models')).to.equal(null);
  });
});

describe('passthrough: usage in JSON answers', () => {
  it('reads Chat Completions usage, with the service tier that served the call', () => {
    const answer = fixtureJson('recorded/openai/chat_completion.json');
    expect(usageOf(answer, 'openai')).to.deep.equal({ ...CHAT_USAGE, service_tier: 'default', raw: answer['usage'] });
  });

  it('reads Responses usage, with the service tier that served the call', () => {
    const answer = fixtureJson('recorded/openai/responses.json');
    expect(usageOf(answer, 'openai')).to.deep.equal({ ...CHAT_USAGE, output_tokens: 5, total_tokens: 22, service_tier: 'default', raw: answer['usage'] });
  });

  it("reads Anthropic's usage with its cache reads and writes added to the prompt", () => {
    const usage = { input_tokens: 14, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 };
    expect(usageOf({ type: 'message', usage }, 'anthropic')).to.deep.equal({
      ...CHAT_USAGE, input_tokens: 134, output_tokens: 5, total_tokens: 139, cached_input_tokens: 100, cache_write_tokens: 20, raw: usage,
    });
  });

  it("reads Gemini's usageMetadata, thoughts counted as output", () => {
    const answer = fixtureJson('gemini-native/generate-content-thinking.json');
    expect(usageOf(answer, 'openai')).to.deep.equal({
      ...CHAT_USAGE, input_tokens: 1289, output_tokens: 252, total_tokens: 1541, cached_input_tokens: 1024, reasoning_tokens: 211, raw: answer['usageMetadata'],
    });
  });

  it('reads the last usage of a JSON array of chunks, and nothing from an answer without usage', () => {
    expect(usageOf([{ usageMetadata: { promptTokenCount: 1 } }, { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 } }, {}], 'openai'))
      .to.deep.include({ input_tokens: 3, output_tokens: 2, total_tokens: 5 });
    expect(usageOf(fixtureJson('recorded/openai/models.json'), 'openai')).to.equal(null);
    expect(usageOf({ usage: { input_tokens: 3 } }, 'anthropic')).to.equal(null);
  });

  it('reads the usage at the end of an answer bigger than the capture limit', () => {
    const usage = { prompt_tokens: 4000, total_tokens: 4000 };
    const data = Array.from({ length: 3000 }, (_, i) => ({ object: 'embedding', index: i, embedding: [0.1, -0.2, 0.3] }));
    const text = JSON.stringify({ object: 'list', data, model: 'text-embedding-3-small', usage });
    const body = new ResponseBody('json', 'openai', 1024, { touch() {} });
    for (let i = 0; i < text.length; i += 1000) body.chunk(Buffer.from(text.slice(i, i + 1000)));
    body.end();
    const outcome = body.outcome();
    expect(outcome.usage).to.deep.equal({ ...CHAT_USAGE, input_tokens: 4000, output_tokens: 0, total_tokens: 4000, raw: usage });
    expect((outcome.body as Buffer).toString()).to.equal(text.slice(0, 1024));
  });

  it('takes only a real usage member from a tail, never text the model wrote', () => {
    const decoy = '{"choices":[{"message":{"content":"say \\"usage\\": {\\"prompt_tokens\\": 999}"}}],"usage":{"prompt_tokens":7,"completion_tokens":1,"total_tokens":8}}';
    expect(usageFromTail(decoy, 'openai')).to.deep.include({ input_tokens: 7, output_tokens: 1, total_tokens: 8 });
    const onlyDecoy = '{"content":"\\"usage\\": {\\"prompt_tokens\\": 999}"}';
    expect(usageFromTail(onlyDecoy, 'openai')).to.equal(null);
    expect(usageFromTail('"usage":{"prompt_tokens":7,"completion_tok', 'openai')).to.equal(null);
  });
});

describe('passthrough: usage in event streams', () => {
  it('reads the usage chunk of a Chat Completions stream', () => {
    const chunk = { id: 'c', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 17, completion_tokens: 4, total_tokens: 21 } };
    const transcript = `${fixtureText('recorded/openai/chat_completion_stream.txt')}\n\ndata: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
    expect(sseUsage(transcript, 'openai')).to.deep.equal({ ...CHAT_USAGE, raw: chunk.usage });
  });

  it('reads response.completed of a Responses stream', () => {
    expect(sseUsage(fixtureText('recorded/openai/responses_stream.txt'), 'openai')).to.deep.include({ input_tokens: 17, output_tokens: 5, total_tokens: 22 });
  });

  it("adds up Anthropic's message_start and message_delta (recorded)", () => {
    expect(sseUsage(fixtureText('recorded/anthropic/messages_stream.txt'), 'anthropic')).to.deep.include({
      input_tokens: 10, output_tokens: 5, total_tokens: 15, cached_input_tokens: 0, cache_write_tokens: 0,
    });
  });

  it('keeps the prompt side of message_start when message_delta carries only output_tokens', () => {
    const transcript = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":12,"cache_read_input_tokens":30,"output_tokens":1}}}',
      '',
      'event: ping',
      'data: {"type": "ping"}',
      '',
      'event: message_delta',
      'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9,"input_tokens":null}}',
      '',
      '',
    ].join('\n');
    expect(sseUsage(transcript, 'anthropic', 5)).to.deep.equal({
      ...CHAT_USAGE, input_tokens: 42, output_tokens: 9, total_tokens: 51, cached_input_tokens: 30,
      raw: { input_tokens: 12, cache_read_input_tokens: 30, output_tokens: 9 },
    });
  });

  it("reads Gemini's last usageMetadata", () => {
    expect(sseUsage(fixtureText('gemini-native/stream-thinking.txt'), 'openai')).to.deep.include({
      input_tokens: 14, output_tokens: 332, total_tokens: 346, reasoning_tokens: 313,
    });
  });

  it('ignores events that are not JSON and streams without usage', () => {
    expect(sseUsage('data: [DONE]\n\n: comment\n\ndata: not json\n\ndata: {"choices":[]}\n\n', 'openai')).to.equal(null);
  });
});
