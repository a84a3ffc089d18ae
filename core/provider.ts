// What a provider plugin registers. The core dispatches an operation ("chat", "embeddings",
// ...) to the handler of that name; a provider without it answers 501 unsupported_operation.
import type { RequestContext } from './context.js';
import type { JsonReply, StreamReply } from './reply.js';
import type { Model, ModelMetadata } from './types/models.js';

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

/** A provider answers with data for the core to write; only stages may write the response themselves. */
export type OperationHandler = (ctx: RequestContext, target: Target) => Promise<JsonReply | StreamReply>;

/** Where passthrough requests of this provider go, and the credential headers that replace the client's. */
export interface PassthroughTarget {
  baseUrl: string;
  authHeaders: Record<string, string>;
}

export interface Provider {
  /** The prefix clients use in model ids (`openai`, `openai-eu`, ...). */
  readonly name: string;
  /** The implementation (`openai`, `anthropic`, ...). */
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

export class ProviderRegistry {
  readonly #byName = new Map<string, Provider>();
  readonly #derivations: OperationDerivation[] = [];
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
