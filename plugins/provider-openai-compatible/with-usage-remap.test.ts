import { expect } from 'chai';
import type { RequestContext } from '../../core/context.js';
import type { OperationHandler, Target } from '../../core/provider.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import type { StreamReply } from '../../core/reply.js';
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import { emptyUsage } from '../../core/types/usage.js';
import type { Usage } from '../../core/types/usage.js';
import { withUsageRemap } from './with-usage-remap.js';

const ctx = {} as unknown as RequestContext;
const target = {} as unknown as Target;
const doubled = (u: Usage): Usage => ({ ...u, provider_cost_usd: u.input_tokens * 2 });

function usageOf(input: number): Usage {
  const u = emptyUsage();
  u.input_tokens = input;
  return u;
}

/** A translator that emits each event's data and reports its length as input tokens. */
class LengthTranslator implements StreamTranslator<unknown> {
  onEvent(event: SseEvent, sink: StreamSink<unknown>): void {
    sink.emit({ data: event.data }, event.data);
    sink.usage(usageOf(event.data.length));
  }
  onEnd(sink: StreamSink<unknown>): void {
    sink.usage(usageOf(100));
  }
}

describe('provider-openai-compatible: usage remapping around a shared handler', () => {
  it('remaps the usage of a JSON answer and keeps its bytes', async () => {
    const handler: OperationHandler = async () => jsonReply({ ok: true }, usageOf(7), '{"ok":true}');
    const reply = await withUsageRemap(handler, doubled)(ctx, target);
    expect(reply.kind).to.equal('json');
    if (reply.kind !== 'json') return;
    expect(reply.raw).to.equal('{"ok":true}');
    expect(reply.usage).to.include({ input_tokens: 7, provider_cost_usd: 14 });
  });

  it('leaves an answer without usage without usage', async () => {
    const handler: OperationHandler = async () => jsonReply({ ok: true });
    const reply = await withUsageRemap(handler, doubled)(ctx, target);
    expect(reply.kind === 'json' && reply.usage).to.equal(null);
  });

  it('passes stream events through unchanged and remaps every usage report, the final one included', async () => {
    const source = (async function* () {})();
    const handler: OperationHandler = async () => streamReply(source, new LengthTranslator());
    const reply = (await withUsageRemap(handler, doubled)(ctx, target)) as StreamReply;
    const emitted: Array<[unknown, string | undefined]> = [];
    const usages: Usage[] = [];
    const sink: StreamSink<unknown> = { emit: (v, raw) => emitted.push([v, raw]), usage: (u) => usages.push(u) };
    reply.translator.onEvent({ event: undefined, data: 'abc' }, sink);
    reply.translator.onEnd(sink);
    expect(emitted).to.deep.equal([[{ data: 'abc' }, 'abc']]);
    expect(usages.map((u) => [u.input_tokens, u.provider_cost_usd])).to.deep.equal([
      [3, 6],
      [100, 200],
    ]);
  });
});
