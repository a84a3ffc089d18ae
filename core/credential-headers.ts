// Headers that carry credentials, to the gateway or to a provider. They are never label
// sources, never recorded with their values, and never passed through to a
// provider (its own credential replaces them).

export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
]);
