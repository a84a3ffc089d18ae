// The contract between the auth plugin and whatever stores API keys (the keys plugin).
// Stores keep only a hash of each secret; auth hands them the presented secret's hash.
import type { Principal } from '../../core/context.js';

export interface KeyStore {
  /**
   * The principal of the key whose secret hashes to `secretHash` (hex SHA-256), or null.
   * May throw a GatewayError (403) for a key that exists but is disabled or expired.
   */
  findByHash(secretHash: string): Principal | null | Promise<Principal | null>;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    keyStore: KeyStore;
  }
}
