// The last `size` bytes of a body that streams past, whatever its length: a JSON answer
// bigger than the capture limit still ends with its usage object (OpenAI, Anthropic and
// Gemini all put it last or nearly last), so accounting does not depend on the limit.

export class TailWindow {
  readonly #size: number;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(size: number) {
    this.#size = size;
  }

  add(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    // Drop whole chunks from the front while what remains still covers the window.
    while (this.#chunks.length > 1 && this.#bytes - this.#chunks[0]!.length >= this.#size) {
      this.#bytes -= this.#chunks.shift()!.length;
    }
  }

  text(): string {
    const all = Buffer.concat(this.#chunks, this.#bytes);
    return all.toString('utf8', Math.max(0, all.length - this.#size));
  }
}
