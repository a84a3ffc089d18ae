// What the operator reads when the gateway starts: where it listens, its providers, plugins,
// data directory, and what plugins describe of themselves (the store, where the dashboard and
// the metrics are, model counts). One line per topic, so it reads in a terminal and each line
// is one JSON record for a log collector. A plugin that learns its part later (models listed
// after the start) has it logged when it does.
import type { Logger } from './logger.js';

export interface StartupFacts {
  url: string;
  providers: readonly string[];
  plugins: readonly string[];
  dataDir: string;
}

export class StartupSummary {
  readonly #logger: Logger;
  readonly #notes = new Map<string, string>();
  #printed = false;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** A topic of the summary (a plugin's `gw.describe`); the last word on a topic wins. */
  note(topic: string, detail: string): void {
    if (this.#printed) this.#line(topic, detail);
    else this.#notes.set(topic, detail);
  }

  print(facts: StartupFacts): void {
    this.#printed = true;
    this.#logger.info(`sluice listening on ${facts.url}`, { startup: 'listening' });
    const notes = this.#notes;
    this.#line('providers', notes.get('providers') ?? (facts.providers.length > 0 ? facts.providers.join(', ') : 'none'));
    this.#line('plugins', facts.plugins.join(', '));
    this.#line('data dir', facts.dataDir);
    for (const [topic, detail] of notes) if (topic !== 'providers') this.#line(topic, detail);
    notes.clear();
  }

  #line(topic: string, detail: string): void {
    this.#logger.info(`${topic}: ${detail}`, { startup: topic });
  }
}
