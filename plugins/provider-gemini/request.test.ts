import { expect } from 'chai';
import { thrownGatewayError } from '../../test/helpers/errors.js';
import type { ChatMessage, ChatRequest } from '../../core/types/chat.js';
import { toGeminiRequest } from './request.js';
import { fixtureJson } from './test-fixtures.js';
import type { GeminiGenerateRequest } from './types.js';

function chat(messages: ChatMessage[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'gemini-2.5-flash', messages, ...extra };
}

const toolCallTurn: ChatMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
};

describe('toGeminiRequest', () => {
  it('translates a multimodal tool conversation exactly', () => {
    const req = fixtureJson<ChatRequest>('openai-request-tools.json');
    expect(toGeminiRequest(req)).to.deep.equal(fixtureJson<GeminiGenerateRequest>('gemini-request-tools.json'));
  });

  it('translates sampling, structured output and reasoning exactly', () => {
    const req = fixtureJson<ChatRequest>('openai-request-structured.json');
    expect(toGeminiRequest(req)).to.deep.equal(fixtureJson<GeminiGenerateRequest>('gemini-request-structured.json'));
  });

  it('keeps the model out of the body', () => {
    const body = toGeminiRequest(chat([{ role: 'user', content: 'hi' }]));
    expect(body).to.deep.equal({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it('merges consecutive turns of the same role', () => {
    const body = toGeminiRequest(chat([
      { role: 'user', content: 'one' },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
      { role: 'assistant', content: 'three' },
      { role: 'assistant', content: 'four' },
    ]));
    expect(body.contents).to.deep.equal([
      { role: 'user', parts: [{ text: 'one' }, { text: 'two' }] },
      { role: 'model', parts: [{ text: 'three' }, { text: 'four' }] },
    ]);
  });

  it('drops turns that have no parts', () => {
    const body = toGeminiRequest(chat([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'again' },
    ]));
    expect(body.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'hi' }, { text: 'again' }] }]);
  });

  it('guesses the MIME type of an image URL from its extension, else image/jpeg', () => {
    const body = toGeminiRequest(chat([{
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'https://example.com/a/chart.PNG?size=large' } },
        { type: 'image_url', image_url: { url: 'https://example.com/render?id=42' } },
        { type: 'image_url', image_url: { url: 'http://example.com/photo.webp' } },
      ],
    }]));
    expect(body.contents[0]?.parts).to.deep.equal([
      { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a/chart.PNG?size=large' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/render?id=42' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'http://example.com/photo.webp' } },
    ]);
  });

  it('sends audio and data-URL files inline', () => {
    const body = toGeminiRequest(chat([{
      role: 'user',
      content: [
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
      ],
    }]));
    expect(body.contents[0]?.parts).to.deep.equal([
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
    ]);
  });

  it('rejects an image URL that is neither data: nor http(s)', () => {
    const err = thrownGatewayError(() => toGeminiRequest(chat([{
      role: 'user',
      content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }],
    }])));
    expect(err.status).to.equal(400);
    expect(err.param).to.equal('messages[0].content[1].image_url.url');
  });

  it('rejects tool call arguments that are not JSON, naming the argument', () => {
    const err = thrownGatewayError(() => toGeminiRequest(chat([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [
        { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'f', arguments: '{"q": ' } },
      ] },
    ])));
    expect(err.status).to.equal(400);
    expect(err.type).to.equal('invalid_request_error');
    expect(err.param).to.equal('messages[1].tool_calls[1].function.arguments');
  });

  it('rejects tool call arguments that are JSON but not an object', () => {
    const err = thrownGatewayError(() => toGeminiRequest(chat([
      { role: 'user', content: 'go' },
      { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '[1,2]' } }] },
    ])));
    expect(err.param).to.equal('messages[1].tool_calls[0].function.arguments');
  });

  it('reads empty arguments as an empty object', () => {
    const body = toGeminiRequest(chat([
      { role: 'user', content: 'go' },
      { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'now', arguments: '' } }] },
    ]));
    expect(body.contents[1]).to.deep.equal({ role: 'model', parts: [{ functionCall: { name: 'now', args: {} } }] });
  });

  it('names a tool result after the call it answers, the latest call with that id winning', () => {
    const body = toGeminiRequest(chat([
      { role: 'user', content: 'go' },
      toolCallTurn,
      { role: 'tool', tool_call_id: 'call_0', content: [{ type: 'text', text: '42' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'other', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'plain words' },
    ]));
    expect(body.contents[2]).to.deep.equal({ role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { result: 42 } } }] });
    expect(body.contents[4]).to.deep.equal({ role: 'user', parts: [{ functionResponse: { name: 'other', response: { result: 'plain words' } } }] });
  });

  it('rejects a tool message that answers no earlier call', () => {
    const err = thrownGatewayError(() => toGeminiRequest(chat([
      { role: 'user', content: 'go' },
      toolCallTurn,
      { role: 'tool', tool_call_id: 'call_9', content: 'x' },
    ])));
    expect(err.status).to.equal(400);
    expect(err.param).to.equal('messages[2].tool_call_id');
  });

  it('accepts legacy function messages by their name', () => {
    const body = toGeminiRequest(chat([
      { role: 'user', content: 'go' },
      { role: 'function', name: 'lookup', content: '{"ok":true}' },
    ]));
    expect(body.contents).to.deep.equal([{
      role: 'user',
      parts: [{ text: 'go' }, { functionResponse: { name: 'lookup', response: { result: { ok: true } } } }],
    }]);
  });

  it('rejects a conversation with no user or assistant turn', () => {
    const err = thrownGatewayError(() => toGeminiRequest(chat([{ role: 'system', content: 'be nice' }])));
    expect(err.param).to.equal('messages');
  });

  it('maps each tool_choice', () => {
    const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'f' } }];
    const config = (choice: ChatRequest['tool_choice']) =>
      toGeminiRequest(chat([{ role: 'user', content: 'x' }], { tools, tool_choice: choice })).toolConfig;
    expect(config('auto')).to.deep.equal({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config('none')).to.deep.equal({ functionCallingConfig: { mode: 'NONE' } });
    expect(config('required')).to.deep.equal({ functionCallingConfig: { mode: 'ANY' } });
    expect(config(undefined)).to.equal(undefined);
  });

  it('declares a function without parameters or description as its name alone', () => {
    const body = toGeminiRequest(chat([{ role: 'user', content: 'x' }], { tools: [{ type: 'function', function: { name: 'now' } }] }));
    expect(body.tools).to.deep.equal([{ functionDeclarations: [{ name: 'now' }] }]);
  });

  it('sends no toolConfig without tools', () => {
    const body = toGeminiRequest(chat([{ role: 'user', content: 'x' }], { tool_choice: 'required' }));
    expect(body).to.not.have.property('toolConfig');
    expect(body).to.not.have.property('tools');
  });

  it('maps json_object to a JSON MIME type alone, and text to nothing', () => {
    const json = toGeminiRequest(chat([{ role: 'user', content: 'x' }], { response_format: { type: 'json_object' } }));
    expect(json.generationConfig).to.deep.equal({ responseMimeType: 'application/json' });
    const text = toGeminiRequest(chat([{ role: 'user', content: 'x' }], { response_format: { type: 'text' } }));
    expect(text).to.not.have.property('generationConfig');
  });

  it('takes max_tokens when max_completion_tokens is absent, and stop arrays as they are', () => {
    const body = toGeminiRequest(chat([{ role: 'user', content: 'x' }], {
      max_tokens: 300, max_completion_tokens: null, stop: ['a', 'b'], presence_penalty: 0.5, frequency_penalty: -0.5,
    }));
    expect(body.generationConfig).to.deep.equal({ maxOutputTokens: 300, stopSequences: ['a', 'b'], presencePenalty: 0.5, frequencyPenalty: -0.5 });
  });

  it('chooses the thinking control from the upstream model when given', () => {
    const req = chat([{ role: 'user', content: 'x' }], { model: 'my-alias', reasoning_effort: 'low' });
    expect(toGeminiRequest(req)).to.not.have.property('generationConfig');
    expect(toGeminiRequest(req, 'gemini-3-pro-preview').generationConfig).to.deep.equal({
      thinkingConfig: { thinkingLevel: 'low', includeThoughts: true },
    });
  });
});
