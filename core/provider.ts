// What a provider plugin registers. The core dispatches an operation ("chat", "embeddings",
// ...) to the handler of that name; a provider without it answers 501 unsupported_operation.
import type { Cancellation } from './cancellation.js';
import type { JsonReply, StreamReply } from './reply.js';
import type { Model, ModelMetadata } from './types/models.js';
import type { Usage } from './types/usage.js';

/** Where a request goes: the provider that serves it and the model name the provider knows. */
export interface Target {
  provider: Provider;
  /** The model name as the provider knows it (no prefix). */
  model: string;
  /** The model id as clients know it (`<prefix>/<model>` or a virtual model's id). */
  id: string;
  /** Catalog/discovered metadata (pricing, context window); null when nothing is known. */
  metadata: ModelMetadata | null;
}

/**
 * What a provider handler is asked: the client's request as the pipeline read it. The same
 * request may go to a second target (failover) and the log stage records it, so a handler builds
 * its upstream body beside it and never changes it.
 */
export interface OperationRequest {
  /** The operation asked for (`chat`, `responses`, `compact`, `embeddings`). */
  readonly operation: string;
  /** The parsed JSON body. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The bytes `body` was parsed from; null when a plugin built the body (a derived operation). */
  readonly raw: Buffer | null;
  readonly stream: boolean;
  /** The model id the client asked for (`<prefix>/<model>` or a virtual model's id). */
  readonly model: string | null;
  /** Cancelled when the client goes away or the gateway gives up: upstream calls take it. */
  readonly signal: Cancellation;
  /** The request's id, for an answer that lacks an id of its own. */
  readonly id: string;
  /** What this call costs beyond its reply; the pipeline reads it once the handler settled. */
  readonly meter: CallMeter;
}

/** What travels beside a call and its reply: its costs the reply cannot carry, and headers plugins add. */
export interface CallMeter {
  /** ms its upstream requests waited for a free connection: pass the meter as their `context`. */
  queuedMs: number;
  /** Headers a plugin adds to this call's upstream requests (a trace context); null for none. */
  upstreamHeaders: Readonly<Record<string, string>> | null;
  /** The usage a provider billed for an answer the handler then refuses (it throws): the call is still metered. */
  billed: Usage | null;
}

/** A provider answers with data for the core to write; only stages may write the response themselves. */
export type OperationHandler = (request: OperationRequest, target: Target) => Promise<JsonReply | StreamReply>;

/** Where passthrough requests of this provider go, and the credential headers that replace the client's. */
export interface PassthroughTarget {
  baseUrl: string;
  authHeaders: Record<string, string>;
}

export interface Provider {
  /** The prefix clients use in model ids (the type's name, or an instance's own: `<type>-eu`). */
  readonly name: string;
  /** The implementation: the type a provider plugin registers. */
  readonly type: string;
  readonly operations: Readonly<Record<string, OperationHandler | undefined>>;
  /** The provider's model list; undefined when it cannot list models. */
  listModels?(signal: AbortSignal): Promise<Model[]>;
  readonly passthrough?: PassthroughTarget;
}

/** Builds an operation a provider lacks from one it has (Responses from Chat Completions). */
export interface OperationDerivation {
  operation: string;
  from: string;
  derive(base: OperationHandler, provider: Provider): OperationHandler;
}

/**
 * Wraps every provider handler: what a plugin does around each provider attempt (a trace span),
 * wherever the core or a forward tap (failover) calls the target.
 */
export type HandlerWrapper = (handler: OperationHandler, provider: Provider, operation: string) => OperationHandler;

export class ProviderRegistry {
  readonly #byName = new Map<string, Provider>();
  readonly #derivations: OperationDerivation[] = [];
  readonly #wrappers: HandlerWrapper[] = [];
  /** Per provider: its native handlers plus the derived ones, built once at registration. */
  readonly #handlers = new Map<string, Record<string, OperationHandler | undefined>>();

  register(provider: Provider): void {
    if (this.#byName.has(provider.name)) throw new Error(`provider prefix '${provider.name}' is registered twice`);
    if (provider.name.includes('/')) throw new Error(`provider prefix '${provider.name}' must not contain '/'`);
    this.#byName.set(provider.name, provider);
    this.#handlers.set(provider.name, this.#effectiveHandlers(provider));
  }

  /** Derivations apply to providers registered before and after. Native handlers always win. */
  addDerivation(derivation: OperationDerivation): void {
    this.#derivations.push(derivation);
    for (const provider of this.#byName.values()) this.#handlers.set(provider.name, this.#effectiveHandlers(provider));
  }

  /** Wraps the handlers of providers registered before and after (at boot: handlers are built once). */
  wrapHandlers(wrapper: HandlerWrapper): void {
    this.#wrappers.push(wrapper);
    for (const provider of this.#byName.values()) this.#handlers.set(provider.name, this.#effectiveHandlers(provider));
  }

  /** The handler of `operation` for `provider`, native or derived; undefined when it has none. */
  handler(provider: Provider, operation: string): OperationHandler | undefined {
    return this.#handlers.get(provider.name)?.[operation];
  }

  #effectiveHandlers(provider: Provider): Record<string, OperationHandler | undefined> {
    const handlers: Record<string, OperationHandler | undefined> = { ...provider.operations };
    for (const d of this.#derivations) {
      const base = handlers[d.from];
      if (handlers[d.operation] === undefined && base !== undefined) handlers[d.operation] = d.derive(base, provider);
    }
    for (const operation in handlers) {
      let handler = handlers[operation];
      if (handler === undefined) continue;
      for (const wrap of this.#wrappers) handler = wrap(handler, provider, operation);
      handlers[operation] = handler;
    }
    return handlers;
  }

  get(name: string): Provider | undefined {
    return this.#byName.get(name);
  }

  get size(): number {
    return this.#byName.size;
  }

  [Symbol.iterator](): IterableIterator<Provider> {
    return this.#byName.values();
  }
}
