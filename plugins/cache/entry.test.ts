import { expect } from 'chai';
import { bodyBytes, entryText, ownBytes, parseEntry, replyFrom } from './entry.js';
import type { JsonReply } from '../../core/reply.js';
import type { Entry } from './entry.js';

const BY = { provider: 'b', model: 'gpt-4o-mini', id: 'b/gpt-4o-mini' };
const USAGE = { input_tokens: 1, output_tokens: 2, total_tokens: 3, cached_input_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0 };

describe('cache entry', () => {
  it('reads back a stored entry: its head, then the payload untouched (line breaks and all)', () => {
    const stream: Entry = { shape: 'stream', usage: USAGE, answeredBy: BY, payload: Buffer.from('data: {"a":"x\\ny é"}\n\ndata: [DONE]\n\n') };
    const json: Entry = { shape: 'json', usage: null, answeredBy: BY, payload: Buffer.from('{\n  "id": 1\n}') };
    expect(entryText(stream)).to.equal(`{"shape":"stream","usage":${JSON.stringify(USAGE)},"answered_by":${JSON.stringify(BY)}}\ndata: {"a":"x\\ny é"}\n\ndata: [DONE]\n\n`);
    expect([parseEntry(entryText(stream)), parseEntry(entryText(json))]).to.deep.equal([stream, json]);
  });

  it('reads an entry written before entries kept who answered, with answeredBy null', () => {
    expect(parseEntry('{"shape":"json","usage":null}\n{"id":1}')).to.deep.equal({ shape: 'json', usage: null, answeredBy: null, payload: Buffer.from('{"id":1}') });
  });

  it('gives null for text that is no entry, so the lookup is a miss and not a failure', () => {
    const texts = ['not json', 'null\n{}', '{"usage":null}\n{}', '{"shape":"xml","usage":null}\n{}', '{"shape":"json"}\n{}', '{"body":"{}","usage":null}', '{"shape":"json","usage":null,"answered_by":"b"}\n{}', '{"shape":"json","usage":null,"answered_by":{"provider":"b","model":"m"}}\n{}'];
    expect(texts.map(parseEntry)).to.deep.equal(texts.map(() => null));
  });

  it('answers only the shape it holds: no JSON for a stream request, no stream for a JSON one', () => {
    const stream: Entry = { shape: 'stream', usage: USAGE, answeredBy: null, payload: Buffer.from('data: [DONE]\n\n') };
    const json: Entry = { shape: 'json', usage: USAGE, answeredBy: null, payload: Buffer.from('{}') };
    expect([replyFrom(stream, 'chat', false, 'c'), replyFrom(json, 'chat', true, 'c')]).to.deep.equal([null, null]);
    expect([replyFrom(stream, 'chat', true, 'c')?.kind, replyFrom(stream, 'responses', true, 'c')?.kind, replyFrom(json, 'chat', false, 'c')?.kind]).to.deep.equal(['stream', 'stream', 'json']);
  });

  it('gives every hit its own copy of the stored usage, so metering one hit cannot change the next', () => {
    const json: Entry = { shape: 'json', usage: USAGE, answeredBy: null, payload: Buffer.from('{}') };
    const first = replyFrom(json, 'chat', false, 'c') as JsonReply;
    first.usage!.input_tokens = 99;
    expect((replyFrom(json, 'chat', false, 'c') as JsonReply).usage).to.deep.equal(USAGE);
    expect(json.usage).to.deep.equal(USAGE);
  });

  it('keeps payload bytes in memory of their own, not in a slice of the shared buffer pool', () => {
    const pooled = Buffer.from('{"id":1}');
    expect(pooled.buffer.byteLength).to.be.greaterThan(pooled.length);
    for (const bytes of [ownBytes(pooled), ownBytes('{"id":"é"}'), bodyBytes(pooled), bodyBytes({ id: 1 })]) expect(bytes.buffer.byteLength).to.equal(bytes.length);
    expect([ownBytes('{"id":"é"}').toString(), bodyBytes({ id: 1 }).toString(), bodyBytes(pooled).toString()]).to.deep.equal(['{"id":"é"}', '{"id":1}', '{"id":1}']);
  });
});
