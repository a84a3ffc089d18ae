// The fold of an OpenAI-style chat stream: runs of chunks in OpenAI's own serialisation are read
// a run at a time by one pattern (canonical-chunks.ts); any other event goes through the core's
// parse-and-add fold alone.
import { ChatFold } from '../../core/stream/chat-fold.js';
import { foldCanonicalChunks } from './canonical-chunks.js';

const DONE_EVENT = 'data: [DONE]\n\n';
const LF = 10;

export class OpenAIChatFold extends ChatFold {
  protected override fold(events: Buffer | string): void {
    // Whole events (the relay hands over no other): a Buffer that ends on a newline decodes alone.
    if (!this.betweenEvents || (typeof events !== 'string' && events[events.length - 1] !== LF)) {
      super.fold(events);
      return;
    }
    const text = typeof events === 'string' ? events : events.toString('utf8');
    let at = 0;
    while (at < text.length && !this.ended) {
      at = foldCanonicalChunks(text, at, this.completion);
      if (at === text.length) break;
      if (text.startsWith(DONE_EVENT, at)) {
        at += DONE_EVENT.length;
        continue;
      }
      // Any other event goes to the parser alone; it ends at a blank line, so the parser holds nothing after it.
      const blank = text.indexOf('\n\n', at);
      const next = blank === -1 ? text.length : blank + 2;
      super.fold(at === 0 && next === text.length ? text : text.slice(at, next));
      at = next;
    }
  }
}
