// Identical misses on one replica wait for the first one (the leader) instead of each calling
// the provider: the leader's log stage stores the answer and then lets the others look again.
export class Coalescer {
  readonly #leaders = new Map<string, { done: Promise<void>; release: () => void }>();

  /** The leader's completion for `key`, or undefined when the caller becomes the leader. */
  follow(key: string): Promise<void> | undefined {
    const leader = this.#leaders.get(key);
    if (leader !== undefined) return leader.done;
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    this.#leaders.set(key, { done, release });
    return undefined;
  }

  /** The leader is done (stored or failed): its followers look again. */
  release(key: string): void {
    const leader = this.#leaders.get(key);
    if (leader === undefined) return;
    this.#leaders.delete(key);
    leader.release();
  }
}
