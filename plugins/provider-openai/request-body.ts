// The upstream body is the client's body with the model name (and a few gateway-owned fields)
// replaced. Rather than copying the body, the fields are swapped in for the one
// JSON.stringify and swapped back, so the client's parsed body stays as received (failover
// and the audit log read it afterwards). A field that was absent is restored as undefined,
// which JSON.stringify omits.

export function serializeWith(body: Record<string, unknown>, fields: Record<string, unknown>): string {
  const saved: unknown[] = [];
  const keys = Object.keys(fields);
  for (const k of keys) {
    saved.push(body[k]);
    body[k] = fields[k];
  }
  try {
    return JSON.stringify(body);
  } finally {
    for (let i = 0; i < keys.length; i++) body[keys[i]!] = saved[i];
  }
}

const USAGE_ON = Object.freeze({ include_usage: true });

/** `stream_options` that makes the provider report usage on a stream, keeping the client's other options. */
export function streamOptionsWithUsage(current: unknown): unknown {
  if (current === undefined || current === null) return USAGE_ON;
  const options = current as Record<string, unknown>;
  return options['include_usage'] === true ? options : { ...options, include_usage: true };
}
