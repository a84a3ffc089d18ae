// A label's values, capped: the first `cap` distinct values are kept as they are, later ones
// become `other`, so a client that names a thousand models cannot make a thousand series.
// The set only grows up to the cap: it never gains and loses an entry per request.

export const OTHER = 'other';

export class BoundedValues {
  readonly #seen = new Set<string>();
  readonly #cap: number;

  constructor(cap: number) {
    this.#cap = cap;
  }

  admit(value: string): string {
    if (this.#seen.has(value)) return value;
    if (this.#seen.size >= this.#cap) return OTHER;
    this.#seen.add(value);
    return value;
  }
}
