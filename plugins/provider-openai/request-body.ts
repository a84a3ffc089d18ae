// The upstream body is the client's body with the model name (and a few gateway-owned fields)
// replaced, written from a shallow copy: the client's body stays as received, since a second
// target (failover) and the log stage read it after the handler. A field given as undefined is
// left out (JSON.stringify omits it).
export function serializeWith(body: Readonly<Record<string, unknown>>, fields: Record<string, unknown>): string {
  return JSON.stringify({ ...body, ...fields });
}

const USAGE_ON = Object.freeze({ include_usage: true });

/** `stream_options` that makes the provider report usage on a stream, keeping the client's other options. */
export function streamOptionsWithUsage(current: unknown): unknown {
  if (current === undefined || current === null) return USAGE_ON;
  const options = current as Record<string, unknown>;
  return options['include_usage'] === true ? options : { ...options, include_usage: true };
}
