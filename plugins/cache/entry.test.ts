import { expect } from 'chai';
import { bodyBytes, entryText, ownBytes, parseEntry, replyFrom } from './entry.js';
import type { JsonReply, RecordedReply } from '../../core/reply.js';
import type { Entry } from './entry.js';

const BY = { provider: 'b', model: 'gpt-4o-mini', id: 'b/gpt-4o-mini' };
const USAGE = { input_tokens: 1, output_tokens: 2, total_tokens: 3, cached_input_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0 };

describe('cache entry', () => {
  it('reads back a stored entry: its head, then a stream\'s folded body and the payload untouched (line breaks and all)', () => {
    const payload = 'data: {"a":"x\\ny é"}\n\ndata: {"choices":[],"usage":{}}\n\ndata: [DONE]\n\n';
    const stream: Entry = { shape: 'events', usage: USAGE, answeredBy: BY, payload: Buffer.from(payload), usageEvents: [[23, 56]], body: Buffer.from('{"a":"é"}') };
    const json: Entry = { shape: 'json', usage: null, answeredBy: BY, payload: Buffer.from('{\n  "id": 1\n}') };
    expect(entryText(stream)).to.equal(`{"shape":"events","usage":${JSON.stringify(USAGE)},"answered_by":${JSON.stringify(BY)},"usage_events":[[23,56]],"body_bytes":10}\n{"a":"é"}${payload}`);
    expect(entryText(json)).to.equal(`{"shape":"json","usage":null,"answered_by":${JSON.stringify(BY)}}\n{\n  "id": 1\n}`);
    expect([parseEntry(entryText(stream)), parseEntry(entryText(json))]).to.deep.equal([stream, json]);
  });

  it('reads an entry written before entries kept who answered, with answeredBy null', () => {
    expect(parseEntry('{"shape":"json","usage":null}\n{"id":1}')).to.deep.equal({ shape: 'json', usage: null, answeredBy: null, payload: Buffer.from('{"id":1}') });
  });

  it('gives null for text that is no entry, so the lookup is a miss and not a failure', () => {
    const texts = [
      // A stream as versions before 2026-12 kept it: a miss, the provider's answer replaces it.
      '{"shape":"stream","usage":null}\ndata: [DONE]\n\n',
      '{"shape":"stream","usage":null,"usage_events":[],"body_bytes":2}\n{}data: [DONE]\n\n',
      '{"shape":"events","usage":null}\ndata: [DONE]\n\n',
      '{"shape":"events","usage":null,"usage_events":[],"body_bytes":99}\n{}data: [DONE]\n\n',
      '{"shape":"events","usage":null,"usage_events":[[0,99]],"body_bytes":2}\n{}data: [DONE]\n\n',
      '{"shape":"events","usage":null,"usage_events":[[4,6],[0,2]],"body_bytes":2}\n{}data: [DONE]\n\n',
      'not json', 'null\n{}', '{"usage":null}\n{}', '{"shape":"xml","usage":null}\n{}', '{"shape":"json"}\n{}', '{"body":"{}","usage":null}', '{"shape":"json","usage":null,"answered_by":"b"}\n{}', '{"shape":"json","usage":null,"answered_by":{"provider":"b","model":"m"}}\n{}',
      // Usage not as the gateway meters it: a hit would record it as given.
      '{"shape":"json","usage":"junk"}\n{}', '{"shape":"json","usage":[1,2]}\n{}', '{"shape":"json","usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}\n{}', '{"shape":"json","usage":{"input_tokens":"5","output_tokens":3,"total_tokens":8}}\n{}'];
    expect(texts.map(parseEntry)).to.deep.equal(texts.map(() => null));
  });

  it('answers only the shape it holds: no JSON for a stream request, no stream for a JSON one', () => {
    const stream: Entry = { shape: 'events', usage: USAGE, answeredBy: null, payload: Buffer.from('data: [DONE]\n\n'), usageEvents: [], body: Buffer.from('{}') };
    const json: Entry = { shape: 'json', usage: USAGE, answeredBy: null, payload: Buffer.from('{}') };
    expect([replyFrom(stream, false, false), replyFrom(json, true, false)]).to.deep.equal([null, null]);
    expect([replyFrom(stream, true, false)?.kind, replyFrom(json, false, false)?.kind]).to.deep.equal(['recorded', 'json']);
  });

  it('replays a stream with its usage chunk to a client that asked for it, without to one that did not; the folded body for the log', () => {
    const payload = 'data: {"choices":[{"delta":{}}]}\n\ndata: {"choices":[],"usage":{}}\n\ndata: [DONE]\n\n';
    const stream: Entry = { shape: 'events', usage: USAGE, answeredBy: null, payload: Buffer.from(payload), usageEvents: [[34, 67]], body: Buffer.from('{"id":1}') };
    const told = replyFrom(stream, true, true) as RecordedReply;
    const quiet = replyFrom(stream, true, false) as RecordedReply;
    expect([told.events.toString(), quiet.events.toString()]).to.deep.equal([payload, 'data: {"choices":[{"delta":{}}]}\n\ndata: [DONE]\n\n']);
    expect([told.body.toString(), told.usage]).to.deep.equal(['{"id":1}', USAGE]);
  });

  it('gives every hit its own copy of the stored usage, so metering one hit cannot change the next', () => {
    const json: Entry = { shape: 'json', usage: USAGE, answeredBy: null, payload: Buffer.from('{}') };
    const first = replyFrom(json, false, false) as JsonReply;
    first.usage!.input_tokens = 99;
    expect((replyFrom(json, false, false) as JsonReply).usage).to.deep.equal(USAGE);
    expect(json.usage).to.deep.equal(USAGE);
  });

  it('keeps payload bytes in memory of their own, not in a slice of the shared buffer pool', () => {
    const pooled = Buffer.from('{"id":1}');
    expect(pooled.buffer.byteLength).to.be.greaterThan(pooled.length);
    for (const bytes of [ownBytes(pooled), ownBytes('{"id":"é"}'), bodyBytes(pooled), bodyBytes({ id: 1 })]) expect(bytes.buffer.byteLength).to.equal(bytes.length);
    expect([ownBytes('{"id":"é"}').toString(), bodyBytes({ id: 1 }).toString(), bodyBytes(pooled).toString()]).to.deep.equal(['{"id":"é"}', '{"id":1}', '{"id":1}']);
  });
});
