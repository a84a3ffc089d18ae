import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../../core/context.js';
import type { UpstreamClient, UpstreamRequest } from '../../core/http-client.js';
import type { Provider, Target } from '../../core/provider.js';
import type { RouteSpec } from '../../core/routes.js';
import type { ModelMetadata } from '../../core/types/models.js';
import { chatHandler } from './chat.js';
import { openAIEndpoint } from './provider.js';

const SENT = new Error('sent');
const b = (s: string): Buffer => Buffer.from(s, 'utf8');

interface Call {
  raw: Buffer;
  /** The body the handler sees in place of the one parsed from `raw` (the Responses adapter's). */
  body?: Record<string, unknown>;
  operation?: string;
  streamUsageOption?: boolean;
  metadata?: ModelMetadata;
  rawBody?: null;
  /** The provider's name for the model (gpt-4o-mini). */
  model?: string;
}

/** What the chat handler sends upstream for a client body, and the body afterwards. */
async function send(call: Call): Promise<{ payload: string | Buffer; body: Record<string, unknown> }> {
  let payload: string | Buffer | null | undefined;
  const upstream = {
    request(req: UpstreamRequest): Promise<never> {
      payload = req.body;
      return Promise.reject(SENT);
    },
  } as unknown as UpstreamClient;
  const ep = openAIEndpoint({ name: 'openai', type: 'openai', baseUrl: 'http://upstream.test/v1', apiKey: 'sk-test', streamUsageOption: call.streamUsageOption ?? true });
  const route: RouteSpec = { method: 'POST', path: '/v1/chat/completions', access: 'client', operation: call.operation ?? 'chat', body: 'json', streamFormat: null, handler: null };
  const ctx = new RequestContext({ headers: {} } as IncomingMessage, {} as ServerResponse, route, {}, route.path);
  ctx.rawBody = call.rawBody === null ? null : call.raw;
  const body = call.body ?? (JSON.parse(call.raw.toString('utf8')) as Record<string, unknown>);
  ctx.body = body;
  ctx.stream = body['stream'] === true;
  const target: Target = { provider: { name: 'openai' } as Provider, model: call.model ?? 'gpt-4o-mini', id: 'openai/gpt-4o-mini', metadata: call.metadata ?? null };
  const err = await chatHandler(upstream, ep)(ctx, target).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).to.equal(SENT);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) throw new Error('no payload');
  return { payload, body: ctx.body };
}

const json = (payload: string | Buffer): unknown => JSON.parse(payload.toString());

/** The body as serializing it with the gateway's fields gives it (what every payload must mean). */
function serialized(raw: Buffer, fields: Record<string, unknown>): unknown {
  const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  return JSON.parse(JSON.stringify({ ...body, ...fields }));
}

const MESSAGES = '"messages":[{"role":"user","content":"Explain what a gateway does."}]';

describe('provider-openai chat: upstream body', () => {
  describe('spliced from the client bytes', () => {
    it('swaps the model value and keeps every other byte', async () => {
      const raw = b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"temperature":0.2,"max_tokens":256}`);
      const { payload, body } = await send({ raw });
      expect(Buffer.isBuffer(payload)).to.equal(true);
      expect(payload.toString()).to.equal(`{"model":"gpt-4o-mini",${MESSAGES},"temperature":0.2,"max_tokens":256}`);
      expect(body['model']).to.equal('openai/gpt-4o-mini');
    });

    it('keeps whitespace around the member, and a model member that comes last', async () => {
      const raw = b(`{ ${MESSAGES} ,\n  "model"\t:  "openai/gpt-4o-mini"\n}`);
      const { payload } = await send({ raw });
      expect(Buffer.isBuffer(payload)).to.equal(true);
      expect(payload.toString()).to.equal(`{ ${MESSAGES} ,\n  "model"\t:  "gpt-4o-mini"\n}`);
    });

    it('keeps "model" written as text (not a key), and multi-byte text', async () => {
      const raw = b(`{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"which \\"model\\" is \\"model\\"? ✓ 😀"},{"role":"user","content":"model"}]}`);
      const { payload } = await send({ raw });
      expect(Buffer.isBuffer(payload)).to.equal(true);
      expect(json(payload)).to.deep.equal(serialized(raw, { model: 'gpt-4o-mini' }));
    });

    it('adds stream_options asking for usage to a stream that has none', async () => {
      const raw = b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true}`);
      const { payload, body } = await send({ raw });
      expect(Buffer.isBuffer(payload)).to.equal(true);
      expect(payload.toString()).to.equal(`{"model":"gpt-4o-mini","stream_options":{"include_usage":true},${MESSAGES},"stream":true}`);
      expect(json(payload)).to.deep.equal(serialized(raw, { model: 'gpt-4o-mini', stream_options: { include_usage: true } }));
      expect(body).to.not.have.property('stream_options');
    });

    it("keeps a stream's own stream_options that already ask for usage", async () => {
      const raw = b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{"include_usage":true}}`);
      const { payload } = await send({ raw });
      expect(Buffer.isBuffer(payload)).to.equal(true);
      expect(payload.toString()).to.equal(`{"model":"gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{"include_usage":true}}`);
    });

    it('adds nothing to a stream for a server that takes no stream_options', async () => {
      const raw = b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true}`);
      const { payload } = await send({ raw, streamUsageOption: false });
      expect(payload.toString()).to.equal(`{"model":"gpt-4o-mini",${MESSAGES},"stream":true}`);
    });

    it('keeps a reasoning level the model accepts', async () => {
      const raw = b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"reasoning_effort":"low"}`);
      const { payload } = await send({ raw });
      expect(Buffer.isBuffer(payload)).to.equal(true);
      expect(json(payload)).to.deep.equal(serialized(raw, { model: 'gpt-4o-mini' }));
    });
  });

  describe('serialized when the bytes cannot be shown to mean the same', () => {
    const cases: Array<[string, Call, Record<string, unknown>]> = [
      [
        'a nested "model" key (a tool parameter)',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"tools":[{"type":"function","function":{"name":"pick","parameters":{"type":"object","properties":{"model":{"type":"string"}}}}}]}`) },
        { model: 'gpt-4o-mini' },
      ],
      [
        'a nested "model" member with the same value',
        { raw: b(`{"metadata":{"model":"openai/gpt-4o-mini"},"model":"openai/gpt-4o-mini",${MESSAGES}}`) },
        { model: 'gpt-4o-mini' },
      ],
      ['a key spelled with an escape', { raw: b(`{"mod\\u0065l":"openai/gpt-4o-mini",${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      [
        'an escaped key beside a nested literal one',
        { raw: b(`{"mod\\u0065l":"openai/gpt-4o-mini","tools":[{"model":"openai/gpt-4o-mini"}],${MESSAGES}}`) },
        { model: 'gpt-4o-mini' },
      ],
      ['a \\u escape anywhere', { raw: b(`{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"caf\\u00e9"}]}`) }, { model: 'gpt-4o-mini' }],
      ['a key that ends in \\"model', { raw: b(`{"x\\"model":"openai/gpt-4o-mini","model":"openai/gpt-4o-mini",${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      ['the model key twice', { raw: b(`{"model":"openai/gpt-4o","model":"openai/gpt-4o-mini",${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      ['a model value with an escape', { raw: b(`{"model":"openai\\/gpt-4o-mini",${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      ['a model name that is not ASCII', { raw: b(`{"model":"openai/gpt-4o-mini-é",${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      ['a provider model name that JSON escapes', { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES}}`), model: 'odd"name' }, { model: 'odd"name' }],
      ['no model in the body', { raw: b(`{${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      ['a model that is not a string', { raw: b(`{"model":["openai/gpt-4o-mini"],${MESSAGES}}`) }, { model: 'gpt-4o-mini' }],
      [
        'bytes that are not UTF-8',
        { raw: Buffer.concat([b(`{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"a`), Buffer.from([0xff]), b('"}]}')]) },
        { model: 'gpt-4o-mini' },
      ],
      [
        'stream_options with include_usage false',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{"include_usage":false}}`) },
        { model: 'gpt-4o-mini', stream_options: { include_usage: true } },
      ],
      [
        'stream_options without include_usage',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{}}`) },
        { model: 'gpt-4o-mini', stream_options: { include_usage: true } },
      ],
      [
        'stream_options null',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":null}`) },
        { model: 'gpt-4o-mini', stream_options: { include_usage: true } },
      ],
      [
        'include_usage twice, the last one true',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{"include_usage":false,"include_usage":true}}`) },
        { model: 'gpt-4o-mini', stream_options: { include_usage: true } },
      ],
      [
        'stream_options twice, the last one asking for usage',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{"include_usage":false},"stream_options":{"include_usage":true}}`) },
        { model: 'gpt-4o-mini', stream_options: { include_usage: true } },
      ],
      [
        "a stream's stream_options for a server that takes none",
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"stream":true,"stream_options":{"include_usage":true}}`), streamUsageOption: false },
        { model: 'gpt-4o-mini', stream_options: undefined },
      ],
      ['a reasoning level moved to the nearest', { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"reasoning_effort":"max"}`) }, { model: 'gpt-4o-mini', reasoning_effort: 'high' }],
      [
        'a reasoning level dropped for a model that cannot reason',
        { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES},"reasoning_effort":"low"}`), metadata: { capabilities: { reasoning: false } } as unknown as ModelMetadata },
        { model: 'gpt-4o-mini', reasoning_effort: undefined },
      ],
      ['no client bytes', { raw: b(`{"model":"openai/gpt-4o-mini",${MESSAGES}}`), rawBody: null }, { model: 'gpt-4o-mini' }],
    ];
    for (const [name, call, fields] of cases) {
      it(name, async () => {
        const { payload, body } = await send(call);
        expect(typeof payload).to.equal('string');
        expect(json(payload)).to.deep.equal(serialized(call.raw, fields));
        // serializeWith puts an absent field back as undefined: the same body in JSON.
        expect(JSON.parse(JSON.stringify(body))).to.deep.equal(JSON.parse(call.raw.toString('utf8')));
      });
    }

    it('a chat body the Responses adapter made in place of the client bytes', async () => {
      const raw = b('{"model":"openai/gpt-4o-mini","input":"Explain what a gateway does."}');
      const body = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Explain what a gateway does.' }] };
      const { payload } = await send({ raw, body, operation: 'responses' });
      expect(typeof payload).to.equal('string');
      expect(json(payload)).to.deep.equal({ ...body, model: 'gpt-4o-mini' });
    });
  });
});
