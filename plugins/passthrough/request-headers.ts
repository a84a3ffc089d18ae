// Which client headers reach the provider on a passthrough call. All of them, except:
// hop-by-hop headers; the client's credentials (its gateway key must never leave the
// gateway), replaced by the provider's; tagging headers marked DONOTPASS; `expect` (the
// gateway already answered 100-continue itself); and `accept-encoding`, so the provider
// answers uncompressed and the gateway can read the usage it bills (a client asking for gzip
// must not make its calls free). Host is the provider's (the proxy sets it).
// Transfer-Encoding stays: node frames the outgoing body by it (a chunked upload is sent
// chunked again), and removing it would make node send the body with no framing at all.
import type { IncomingHttpHeaders, OutgoingMessage } from 'node:http';
import { CREDENTIAL_HEADERS } from '../../core/credential-headers.js';
import { connectionListed, isHopByHop } from './hop-by-hop.js';

/** Every header a client may use to present a credential to some provider (or to us). */
const CREDENTIALS: readonly string[] = [...CREDENTIAL_HEADERS];
const ANSWERED_HERE: readonly string[] = ['expect', 'accept-encoding'];
/** Set for the gateway's own hop: the provider's host, and the framing of the body as node sends it. */
const KEPT: ReadonlySet<string> = new Set(['host', 'transfer-encoding']);

export class RequestHeaderPolicy {
  readonly #dropped: ReadonlySet<string>;
  readonly #credentials: ReadonlySet<string> = new Set(CREDENTIALS);

  /** `doNotPass`: lower-case names of the tagging headers marked DONOTPASS. */
  constructor(doNotPass: Iterable<string>) {
    this.#dropped = new Set([...CREDENTIALS, ...ANSWERED_HERE, ...doNotPass]);
  }

  /**
   * Edits the outgoing request's headers (a copy of the client's) before any of it is sent.
   * The provider's credential headers always win; its other headers (anthropic-version) are
   * defaults a client speaking the native API may set itself.
   */
  apply(outgoing: OutgoingMessage, client: IncomingHttpHeaders, providerHeaders: Readonly<Record<string, string>>): void {
    const listed = connectionListed(client.connection);
    for (const name of outgoing.getHeaderNames()) {
      if (KEPT.has(name)) continue;
      if (this.#dropped.has(name) || isHopByHop(name, listed)) outgoing.removeHeader(name);
    }
    for (const name in providerHeaders) {
      if (this.#credentials.has(name) || !outgoing.hasHeader(name)) outgoing.setHeader(name, providerHeaders[name]!);
    }
  }
}
