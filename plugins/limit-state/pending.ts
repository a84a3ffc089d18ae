// Writes sent to a store without the request waiting for them (settling in the log stage):
// kept until they finish, so closing the store first lets them land and none is lost.
export class PendingWrites {
  readonly #writes = new Set<Promise<void>>();

  add(write: Promise<void>): void {
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
  }

  async drain(): Promise<void> {
    await Promise.all(this.#writes);
  }
}
