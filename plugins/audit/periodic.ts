// A job run now and then every `everyMs` on an unref'd timer, one run at a time (a call while
// one runs joins it); stop() waits for a running one, so what it uses can be closed after.
export class Periodic {
  readonly #job: (now: number) => Promise<void>;
  readonly #everyMs: number;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;

  constructor(job: (now: number) => Promise<void>, everyMs: number) {
    this.#job = job;
    this.#everyMs = everyMs;
  }

  start(): void {
    void this.run();
    this.#timer = setInterval(() => void this.run(), this.#everyMs).unref();
  }

  /** Runs the job now, or joins the run in progress. Never rejects: jobs report their own errors. */
  run(now: number = Date.now()): Promise<void> {
    this.#running ??= this.#job(now)
      .catch(() => undefined)
      .finally(() => {
        this.#running = null;
      });
    return this.#running;
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
