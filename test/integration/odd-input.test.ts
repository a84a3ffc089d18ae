// Odd input (issue 13, items 2 and 3): a model id a header cannot carry, and JSON nested
// deeper than the gateway's rule, are the client's 400 before any provider is called, on every
// JSON route, streamed or not; and an audit entry of such a request still reads back.
import { expect } from 'chai';
import { expectError } from '../helpers/errors.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { MAX_JSON_DEPTH } from '../../core/json-depth.js';

const MODEL = 'openai/gpt-4o-mini';

/** Each route's smallest valid body, with `model` and `stream` as given. */
const BODIES: Record<string, (model: string, stream: boolean) => Record<string, unknown>> = {
  '/v1/chat/completions': (model, stream) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
  '/v1/responses': (model, stream) => ({ model, stream, input: 'hi' }),
  '/v1/embeddings': (model) => ({ model, input: 'hi' }),
};
const CALLS: Array<[string, boolean]> = [
  ['/v1/chat/completions', false],
  ['/v1/chat/completions', true],
  ['/v1/responses', false],
  ['/v1/responses', true],
  ['/v1/embeddings', false],
];

/** `[[...]]` nested `depth` levels as a member of the body (the body itself is level 1). */
function nested(depth: number): string {
  return '['.repeat(depth - 1) + ']'.repeat(depth - 1);
}

/** A body whose JSON text replaces `"__deep__"` with raw text (JSON.stringify cannot build it). */
function withRaw(body: Record<string, unknown>, raw: string): string {
  return JSON.stringify({ ...body, extra: '__deep__' }).replace('"__deep__"', raw);
}

describe('odd input: model ids and deep nesting @integration', () => {
  const openai = withOpenAIGateway();

  describe('a model id a header cannot carry: 400 invalid_model_id, param model, no provider call', () => {
    const INVALID_MODEL = { message: "'model' must be printable text: no control characters, nothing above U+00FF", type: 'invalid_request_error', code: 'invalid_model_id', param: 'model' };
    // As JSON string escapes, so the body text is plain ASCII and JSON.parse makes the character.
    const ODD: Array<[string, string]> = [
      ['CR', '\\r'],
      ['LF', '\\n'],
      ['NUL', '\\u0000'],
      ['a control character (ESC)', '\\u001b'],
      ['DEL', '\\u007f'],
      ['a C1 control (NEL)', '\\u0085'],
      ['a character above U+00FF', '\\u0100'],
      ['a lone surrogate', '\\ud800'],
    ];
    for (const [path, stream] of CALLS) {
      for (const [what, escape] of ODD) {
        it(`${path}${stream ? ' (stream)' : ''}: ${what}`, async () => {
          const body = JSON.stringify(BODIES[path]!(`${MODEL}-__odd__`, stream)).replace('__odd__', escape);
          await expectError(await openai.gw.fetch(path, { method: 'POST', body }), 400, INVALID_MODEL);
          expect(openai.mock.requests).to.have.length(0);
        });
      }
      it(`${path}${stream ? ' (stream)' : ''}: invalid UTF-8`, async () => {
        const [before, after] = JSON.stringify(BODIES[path]!(`${MODEL}-__odd__`, stream)).split('__odd__') as [string, string];
        const body = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
        await expectError(await openai.gw.fetch(path, { method: 'POST', body }), 400, INVALID_MODEL);
        expect(openai.mock.requests).to.have.length(0);
      });
    }

    it('a model id with latin1 letters is served, and echoed as is in x-gateway-model', async () => {
      const res = await openai.gw.fetch('/v1/embeddings', { method: 'POST', body: JSON.stringify(BODIES['/v1/embeddings']!(`${MODEL}-café`, false)) });
      expect(res.status, await res.clone().text()).to.equal(200);
      expect(res.headers.get('x-gateway-model')).to.equal('gpt-4o-mini-café');
      expect((openai.mock.last().json as { model: string }).model).to.equal('gpt-4o-mini-café');
    });
  });

  describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels: 400 json_too_deep, no provider call`, () => {
    const TOO_DEEP = { message: `request body nests deeper than ${MAX_JSON_DEPTH} levels`, type: 'invalid_request_error', code: 'json_too_deep', param: null };

    for (const [path, stream] of CALLS) {
      for (const depth of [MAX_JSON_DEPTH + 1, 10_000]) {
        it(`${path}${stream ? ' (stream)' : ''}: ${depth} levels`, async () => {
          const body = withRaw(BODIES[path]!(MODEL, stream), nested(depth));
          await expectError(await openai.gw.fetch(path, { method: 'POST', body }), 400, TOO_DEEP);
          expect(openai.mock.requests).to.have.length(0);
        });
      }
    }

    it(`${MAX_JSON_DEPTH} levels exactly are served, and forwarded as sent`, async () => {
      const body = withRaw(BODIES['/v1/embeddings']!(MODEL, false), nested(MAX_JSON_DEPTH));
      const res = await openai.gw.fetch('/v1/embeddings', { method: 'POST', body });
      expect(res.status, await res.clone().text()).to.equal(200);
      expect(openai.mock.last().body).to.equal(body.replace(MODEL, 'gpt-4o-mini'));
    });

    it('GET /admin/audit/{id} of a 10,000-deep request answers 200 with the body as sent', async () => {
      const body = withRaw(BODIES['/v1/responses']!(MODEL, false), nested(10_000));
      const rejected = await openai.gw.fetch('/v1/responses', { method: 'POST', body });
      expect(rejected.status).to.equal(400);
      const id = rejected.headers.get('x-request-id')!;
      const res = await openai.gw.fetch(`/admin/audit/${id}`);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).to.equal(200);
      expect(text).to.include(`"request_body":${body}`);
      const entry = JSON.parse(text) as { id: string; status: number };
      expect([entry.id, entry.status]).to.deep.equal([id, 400]);
    });
  });
});
