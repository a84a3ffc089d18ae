// How one operation's streams look to the client: the framing of each value, the trailer,
// and how the values fold back into the final object that the log stage records.
import type { RequestContext } from '../context.js';
import type { GatewayError } from '../errors.js';
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
  /**
   * The failure a stream that ran to its end reported in its own terms (a Responses stream's
   * `response.failed`), which the client got as the provider sent it; null when it succeeded.
   */
  failure(provider: string): GatewayError | null;
}

export interface StreamFormat {
  readonly name: string;
  /** `copy`: where every framed event goes too, shown to this client or hidden from it (or null). */
  createSink(ctx: RequestContext, copy: StreamCopy | null): FormatSink;
}
