// The first `limit` bytes of a body that streams past, without holding up or copying the
// stream: chunks are kept by reference and joined once, when the result is asked for.

export class ByteCapture {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #joined: Buffer | null = null;
  /** Every byte that went past, kept or not. */
  total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.#limit - this.#kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(part);
    this.#kept += part.length;
    this.#joined = null;
  }

  /** More went past than was kept. */
  get truncated(): boolean {
    return this.total > this.#kept;
  }

  /** What was kept, or null when the body was empty. */
  bytes(): Buffer | null {
    if (this.total === 0) return null;
    this.#joined ??= Buffer.concat(this.#chunks, this.#kept);
    return this.#joined;
  }
}
