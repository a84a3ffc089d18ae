// The credential values the gateway holds (the master key, provider keys), taken out of text
// that leaves it: a provider's error message may quote the key it was sent, and that message
// would otherwise reach the client, the log stage's records and the operator's log.
import { GatewayError } from './errors.js';

const REDACTED = '[redacted]';

export class SecretText {
  readonly #values: readonly string[];

  /** Values shorter than 8 characters are left alone: redacting them would mangle ordinary text. */
  constructor(values: Iterable<string>) {
    this.#values = [...values].filter((v) => v.length >= 8);
  }

  redact(text: string): string {
    for (const value of this.#values) if (text.includes(value)) text = text.replaceAll(value, REDACTED);
    return text;
  }

  /** The error itself when its message quotes no credential, else a copy with them redacted. */
  redactError(err: GatewayError): GatewayError {
    const message = this.redact(err.message);
    if (message === err.message) return err;
    const { status, type, code, param, provider, retryable, retryAfter, cause } = err;
    return new GatewayError({ status, type, message, code, param, provider, retryable, retryAfter, cause });
  }
}
