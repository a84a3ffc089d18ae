// What the gateway reads from a provider's answer as it streams to the client: the first
// bytes for the audit log, and the usage (event by event for a stream; from the whole JSON
// once it ended, or from its tail when it was bigger than the capture limit).
import { SseParser } from '../../core/stream/sse-parser.js';
import type { Usage } from '../../core/types/usage.js';
import type { BodyKind } from './body-kind.js';
import { ByteCapture } from './byte-capture.js';
import type { BodyObserver } from './observing-stream.js';
import { IGNORING_SINK, SseUsage } from './sse-usage.js';
import { TailWindow } from './tail-window.js';
import { usageFromTail } from './tail-usage.js';
import { usageOf } from './usage-of.js';
import type { UsageDialect } from './usage-of.js';

/** Enough for any usage object with its details, and then some. */
const TAIL_BYTES = 64 * 1024;

/** Told about every chunk, so an idle timer can be refreshed. */
export interface Activity {
  touch(): void;
}

export interface ResponseOutcome {
  /** The parsed JSON answer when it was kept whole; otherwise the kept bytes (null when empty). */
  body: unknown;
  usage: Usage | null;
}

export class ResponseBody implements BodyObserver {
  readonly capture: ByteCapture;
  complete = false;
  readonly #kind: BodyKind;
  readonly #dialect: UsageDialect;
  readonly #activity: Activity;
  readonly #parser: SseParser | null;
  readonly #sse: SseUsage | null;
  readonly #tail: TailWindow | null;

  constructor(kind: BodyKind, dialect: UsageDialect, limit: number, activity: Activity) {
    this.capture = new ByteCapture(limit);
    this.#kind = kind;
    this.#dialect = dialect;
    this.#activity = activity;
    this.#parser = kind === 'sse' ? new SseParser() : null;
    this.#sse = kind === 'sse' ? new SseUsage(dialect) : null;
    this.#tail = kind === 'json' ? new TailWindow(TAIL_BYTES) : null;
  }

  chunk(chunk: Buffer): void {
    this.#activity.touch();
    this.capture.add(chunk);
    if (this.#parser !== null) this.#parser.feed(chunk, this.#sse!, IGNORING_SINK);
    else if (this.#tail !== null) this.#tail.add(chunk);
  }

  end(): void {
    this.complete = true;
    if (this.#parser !== null) this.#parser.end(this.#sse!, IGNORING_SINK);
  }

  /** Read once, when the call is over: the JSON is parsed here, never on the way through. */
  outcome(): ResponseOutcome {
    const bytes = this.capture.bytes();
    if (this.#sse !== null) return { body: bytes, usage: this.#sse.usage };
    if (this.#kind !== 'json' || !this.complete || bytes === null) return { body: bytes, usage: null };
    if (this.capture.truncated) return { body: bytes, usage: usageFromTail(this.#tail!.text(), this.#dialect) };
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return { body: bytes, usage: null };
    }
    return { body: parsed, usage: usageOf(parsed, this.#dialect) };
  }
}
