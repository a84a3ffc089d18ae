// How often a stream may learn a chunk template. Learning costs about three parses of a chunk;
// a stream may learn again when its template stops matching (xAI's `created` moves on each
// second), but a stream that never matches must not pay for learning on every chunk: each learn
// spends a credit, and credits come back only with chunks a template took.
import type { ChatCompletionChunk } from '../types/chat.js';

const CREDITS = 3;
const HITS_PER_CREDIT = 8;

export class LearningBudget {
  #credits = CREDITS;
  #hits = 0;

  /** A chunk the template took. */
  hit(): void {
    if (++this.#hits % HITS_PER_CREDIT === 0 && this.#credits < CREDITS) this.#credits++;
  }

  /**
   * Whether to learn from a chunk that was parsed whole, spending a credit if so: only from a
   * one-choice chunk that does not finish its choice (a finishing chunk is the last of its kind).
   */
  spendOn(chunk: ChatCompletionChunk): boolean {
    if (this.#credits === 0 || chunk.choices.length !== 1 || chunk.choices[0]?.finish_reason) return false;
    this.#credits--;
    return true;
  }
}
