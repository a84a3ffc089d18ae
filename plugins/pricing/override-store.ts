// Where the operator's price overrides (the admin API) are kept. Behind this small interface so
// that a store shared by several replicas can replace the file below; until then each replica
// keeps its own, in its data directory.
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pricing } from '../../core/types/pricing.js';

/** One change to a model's price: who made it and when. `pricing: null` removed the override. */
export interface PriceChange {
  model: string;
  pricing: Pricing | null;
  /** `master`, or the id of the admin key that made the change. */
  updated_by: string;
  /** ISO 8601. */
  updated_at: string;
}

export interface PriceOverrideStore {
  /** The latest change of every model whose override is in force. */
  load(): Promise<PriceChange[]>;
  /** Keeps a change; resolves once it is written. */
  record(change: PriceChange): Promise<void>;
}

const FILE = 'price-overrides.jsonl';

/**
 * A journal in the data directory, one JSON line per change, appended (never rewritten), so the
 * file is also the history of who changed which price when. Writes are asynchronous and in order.
 */
export class JournalPriceStore implements PriceOverrideStore {
  readonly #path: string;
  #last: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.#path = join(dataDir, FILE);
  }

  async load(): Promise<PriceChange[]> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const latest = new Map<string, PriceChange>();
    for (const line of text.split('\n')) {
      const change = parseLine(line);
      if (change !== null) latest.set(change.model, change);
    }
    return [...latest.values()].filter((change) => change.pricing !== null);
  }

  record(change: PriceChange): Promise<void> {
    const line = `${JSON.stringify(change)}\n`;
    // Chained, so two changes in quick succession land in the order they were made.
    const write = this.#last.then(() => appendFile(this.#path, line, { mode: 0o600 }));
    this.#last = write.catch(() => undefined);
    return write;
  }
}

/** A line the process did not finish writing (a crash mid-append) is no change at all. */
function parseLine(line: string): PriceChange | null {
  if (line.trim() === '') return null;
  try {
    return JSON.parse(line) as PriceChange;
  } catch {
    return null;
  }
}
