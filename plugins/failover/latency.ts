// Recent answer time per target model id, an exponential moving average of successful calls
// (failures are the breaker's business), for the `lowest_latency` strategy.
const WEIGHT_OF_NEWEST = 0.2;

export class LatencyTable {
  readonly #ms = new Map<string, number>();

  /** The average in ms; 0 for a target not measured yet. */
  get(id: string): number {
    return this.#ms.get(id) ?? 0;
  }

  record(id: string, ms: number): void {
    const previous = this.#ms.get(id);
    this.#ms.set(id, previous === undefined ? ms : previous + WEIGHT_OF_NEWEST * (ms - previous));
  }
}
