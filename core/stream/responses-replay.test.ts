import { expect } from 'chai';
import type { ResponseObject } from '../types/responses.js';
import { responseEvents } from './responses-replay.js';

const base = { id: 'resp_1', object: 'response', created_at: 1, model: 'm', usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } } as const;

describe('a Responses object replayed as its stream', () => {
  it('opens, fills and closes a reasoning summary, a refusal and a function call in order, and ends incomplete when the answer is', () => {
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'thought' }] };
    const message = { id: 'msg_1', type: 'message', role: 'assistant' as const, status: 'completed', content: [{ type: 'refusal', refusal: 'no' }] };
    const call = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'c1', name: 'f', arguments: '{"a":1}' };
    const response: ResponseObject = { ...base, status: 'incomplete', output: [reasoning, message, call] };
    const started = { ...response, status: 'in_progress', output: [], usage: null };
    const events = [
      { type: 'response.created', response: started },
      { type: 'response.in_progress', response: started },
      { type: 'response.output_item.added', output_index: 0, item: { ...reasoning, summary: [] } },
      { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'thought' },
      { type: 'response.reasoning_summary_text.done', item_id: 'rs_1', output_index: 0, summary_index: 0, text: 'thought' },
      { type: 'response.reasoning_summary_part.done', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: 'thought' } },
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      { type: 'response.output_item.added', output_index: 1, item: { ...message, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'refusal', refusal: '' } },
      { type: 'response.refusal.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'no' },
      { type: 'response.refusal.done', item_id: 'msg_1', output_index: 1, content_index: 0, refusal: 'no' },
      { type: 'response.content_part.done', item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'refusal', refusal: 'no' } },
      { type: 'response.output_item.done', output_index: 1, item: message },
      { type: 'response.output_item.added', output_index: 2, item: { ...call, status: 'in_progress', arguments: '' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 2, delta: '{"a":1}' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 2, arguments: '{"a":1}' },
      { type: 'response.output_item.done', output_index: 2, item: call },
      { type: 'response.incomplete', response },
    ];
    expect(responseEvents(response)).to.deep.equal(events.map((e, i) => ({ ...e, sequence_number: i })));
  });

  it('has no replay for an item, a part or a status the stream cannot carry exactly', () => {
    const text = { id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: 'x', annotations: [] }] };
    expect(responseEvents({ ...base, status: 'completed', output: [text] })).to.have.length(9);
    expect(responseEvents({ ...base, status: 'completed', output: [{ id: 'ws_1', type: 'web_search_call' }, text] })).to.equal(null);
    expect(responseEvents({ ...base, status: 'completed', output: [{ ...text, content: [{ type: 'output_audio', data: '' }] }] })).to.equal(null);
    expect(responseEvents({ ...base, status: 'in_progress', output: [text] })).to.equal(null);
  });
});
