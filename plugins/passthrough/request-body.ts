// What the gateway keeps of a passthrough request body as it streams to the provider: the
// first bytes (ctx.rawBody, for the audit log and the model), the total, and whether it ended.
import { ByteCapture } from './byte-capture.js';
import type { BodyObserver } from './observing-stream.js';

export class RequestBody implements BodyObserver {
  readonly capture: ByteCapture;
  complete = false;

  constructor(limit: number) {
    this.capture = new ByteCapture(limit);
  }

  chunk(chunk: Buffer): void {
    this.capture.add(chunk);
  }

  end(): void {
    this.complete = true;
  }
}
