// The test plugins' fallback: a `<provider>/<model>` option resolved to a target once every
// provider is set up (the ready hook), as a forward tap would hold it.
import type { Gateway } from '../../core/plugin.js';
import type { Target } from '../../core/provider.js';

export const FALLBACK_SCHEMA = { type: 'object', additionalProperties: false, required: ['fallback'], properties: { fallback: { type: 'string', pattern: '^[^/]+/.+$' } } } as const;

/** The fallback target, known from the ready hook on. */
export function fallbackTarget(gw: Gateway, name: string, id: string): () => Target {
  let target: Target | null = null;
  gw.lifecycle.ready.tap(name, () => {
    const slash = id.indexOf('/');
    const provider = gw.providers.get(id.slice(0, slash));
    if (provider === undefined) throw new Error(`fallback '${id}': no such provider`);
    target = { provider, model: id.slice(slash + 1), id, metadata: gw.services.models?.metadata(id) ?? null };
  });
  return () => target!;
}
