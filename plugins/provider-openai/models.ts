// GET /models of an OpenAI-style upstream as the gateway's model list (ids get the prefix).
import type { UpstreamClient } from '../../core/http-client.js';
import type { Model } from '../../core/types/models.js';
import type { OpenAIEndpoint } from './endpoint.js';

interface OpenAIModelList {
  data?: Array<{ id?: unknown; created?: unknown; owned_by?: unknown }>;
}

export function fromOpenAIModelList(prefix: string, list: OpenAIModelList): Model[] {
  const out: Model[] = [];
  for (const m of list.data ?? []) {
    if (typeof m.id !== 'string' || m.id === '') continue;
    out.push({
      id: `${prefix}/${m.id}`,
      object: 'model',
      created: typeof m.created === 'number' ? m.created : 0,
      owned_by: typeof m.owned_by === 'string' ? m.owned_by : prefix,
      metadata: {},
    });
  }
  return out;
}

export function listModels(upstream: UpstreamClient, ep: OpenAIEndpoint) {
  return async (signal: AbortSignal): Promise<Model[]> => {
    const res = await upstream.request({ provider: ep.name, url: ep.url('/models', ''), method: 'GET', headers: ep.headers, signal, mapError: ep.mapError });
    return fromOpenAIModelList(ep.name, await res.body.json<OpenAIModelList>());
  };
}
