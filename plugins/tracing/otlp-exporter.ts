// A batch's OTLP JSON body (otlp-json.ts) to an OTLP/HTTP collector, POSTed through an undici
// pool of the exporter's own. The batch processor hands over one body at a time; one the
// collector refuses for now (429, 502, 503, 504, no connection) is sent again after a growing
// pause, as the SDK's exporter does, until the export's time runs out.
import { Pool } from 'undici';
import type { Logger } from '../../core/logger.js';

export interface OtlpExporterOptions {
  /** The traces URL: `<endpoint>/v1/traces`. */
  url: string;
  /** Sent with each export (a collector's credentials). */
  headers: Record<string, string>;
  /** The time an export may take, retries included. */
  timeoutMs: number;
  logger: Logger;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_ATTEMPTS = 5;
const FIRST_PAUSE_MS = 1000;
const MAX_PAUSE_MS = 5000;
/** What a refusal's body is read for: its first words in the log. */
const ERROR_TEXT_LIMIT = 200;

/** A refused export: whether sending it again later may work. */
class ExportRefused extends Error {
  constructor(message: string, readonly retryable: boolean, readonly retryAfterMs: number | null = null) {
    super(message);
  }
}

export class OtlpJsonExporter {
  readonly #pool: Pool;
  readonly #path: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  readonly #url: string;
  /** Whether the last export failed: the log says so when exports start failing, not for each batch. */
  #failing = false;

  constructor(options: OtlpExporterOptions) {
    const url = new URL(options.url);
    this.#url = options.url;
    this.#pool = new Pool(url.origin, { connections: 1, connect: { timeout: options.timeoutMs } });
    this.#path = url.pathname + url.search;
    this.#headers = { ...options.headers, 'content-type': 'application/json' };
    this.#timeoutMs = options.timeoutMs;
    this.#logger = options.logger;
  }

  /** Resolves once the collector took the body; rejects when it is dropped (the log says so once per failing streak). */
  export(body: Buffer): Promise<void> {
    return this.#send(body).then(
      () => {
        if (this.#failing) this.#logger.info('trace export works again', { url: this.#url });
        this.#failing = false;
      },
      (error: Error) => {
        if (!this.#failing) this.#logger.warn('trace export failed: spans are dropped until the collector takes them', { url: this.#url, error: error.message });
        this.#failing = true;
        throw error;
      },
    );
  }

  /** Once the batch processor's last export settled: undici's close lets a request under way finish. */
  shutdown(): Promise<void> {
    return this.#pool.close();
  }

  async #send(body: Buffer): Promise<void> {
    const deadline = Date.now() + this.#timeoutMs;
    let pause = FIRST_PAUSE_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#post(body, deadline);
        return;
      } catch (err) {
        const refused = err instanceof ExportRefused ? err : new ExportRefused((err as Error).message, true);
        // ±20%: exporters refused together do not all come back at the same moment.
        const wait = refused.retryAfterMs ?? Math.min(pause, MAX_PAUSE_MS) * (0.8 + 0.4 * Math.random());
        if (!refused.retryable || attempt === MAX_ATTEMPTS || Date.now() + wait >= deadline) throw refused;
        await new Promise((resolve) => setTimeout(resolve, wait));
        pause *= 1.5;
      }
    }
  }

  async #post(body: Buffer, deadline: number): Promise<void> {
    const left = Math.max(1, deadline - Date.now());
    const { statusCode, headers, body: answer } = await this.#pool.request({
      path: this.#path,
      method: 'POST',
      headers: this.#headers,
      body,
      headersTimeout: left,
      bodyTimeout: left,
    });
    if (statusCode < 300) {
      await answer.dump();
      return;
    }
    let text = '';
    for await (const chunk of answer) {
      text += String(chunk);
      if (text.length >= ERROR_TEXT_LIMIT) break;
    }
    text = text.slice(0, ERROR_TEXT_LIMIT);
    const retryAfter = Number(headers['retry-after']);
    throw new ExportRefused(`the collector answered ${statusCode}${text ? `: ${text}` : ''}`, RETRY_STATUSES.has(statusCode), retryAfter > 0 ? retryAfter * 1000 : null);
  }
}
