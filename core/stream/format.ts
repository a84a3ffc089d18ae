// How one operation's streams look to the client: the framing of each value, the trailer,
// and how the values fold back into the final object that the log stage records.
import type { RequestContext } from '../context.js';
import type { Usage } from '../types/usage.js';
import type { StreamCopy } from './stream-copy.js';
import type { StreamSink } from './translator.js';

export interface FormatSink extends StreamSink<unknown> {
  /** Framed text produced since the last call ('' when nothing is pending). */
  take(): string;
  /** The text that ends a clean stream (`data: [DONE]` for chat). */
  trailer(): string;
  /** The stream folded into the non-streaming response object. */
  result(): unknown;
  /** Provider-neutral usage, when the translator reported it. */
  usageResult(): Usage | null;
}

export interface StreamFormat {
  readonly name: string;
  /** `copy`: where every framed event goes too, shown to this client or hidden from it (or null). */
  createSink(ctx: RequestContext, copy: StreamCopy | null): FormatSink;
}
