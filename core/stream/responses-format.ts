// Responses API streams: `event: <type>` + `data: <event>` pairs, no trailer. The final
// object is the `response` carried by the terminal event (completed, incomplete, failed).
import { providerStatusError } from '../errors.js';
import type { GatewayError } from '../errors.js';
import type { ResponseObject, ResponsesStreamEvent } from '../types/responses.js';
import type { Usage } from '../types/usage.js';
import type { FormatSink, StreamFormat } from './format.js';
import type { StreamCopy } from './stream-copy.js';

export class ResponsesStreamSink implements FormatSink {
  #out = '';
  #response: ResponseObject | null = null;
  #neutral: Usage | null = null;
  readonly #copy: StreamCopy | null;

  constructor(copy: StreamCopy | null = null) {
    this.#copy = copy;
  }

  emit(value: unknown, raw?: string): void {
    const event = value as ResponsesStreamEvent;
    if (event.response) this.#response = event.response;
    const framed = 'event: ' + event.type + '\ndata: ' + (raw ?? JSON.stringify(event)) + '\n\n';
    this.#copy?.add(framed);
    this.#out += framed;
  }

  usage(usage: Usage): void {
    this.#neutral = usage;
  }

  take(): string {
    const out = this.#out;
    this.#out = '';
    return out;
  }

  trailer(): string {
    return '';
  }

  result(): ResponseObject | null {
    return this.#response;
  }

  usageResult(): Usage | null {
    return this.#neutral;
  }

  /** A response that ended `failed` carries its error, as a JSON answer that is an error does. */
  failure(provider: string): GatewayError | null {
    const error = this.#response?.error;
    return error == null ? null : providerStatusError(provider, 502, error.message, error.code);
  }
}

export const responsesStreamFormat: StreamFormat = {
  name: 'responses',
  createSink: (_ctx, copy) => new ResponsesStreamSink(copy),
};
