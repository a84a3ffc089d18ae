// GET /v1/models of Anthropic as the gateway's model list. Anthropic pages its list
// (`has_more`, `last_id`, `after_id`) and dates models with an ISO `created_at` where OpenAI
// has a Unix `created`.
import type { UpstreamClient } from '../../core/http-client.js';
import { providerFailed } from '../../core/errors.js';
import type { Model } from '../../core/types/models.js';
import type { AnthropicEndpoint } from './endpoint.js';
import { isRecord } from './is-record.js';
import { callAnthropic, readJson, type ExpectedBody } from './upstream-call.js';

export interface AnthropicModelInfo {
  type?: unknown;
  id?: unknown;
  display_name?: unknown;
  created_at?: unknown;
}

export interface AnthropicModelPage {
  data: AnthropicModelInfo[];
  has_more?: unknown;
  last_id?: unknown;
}

const PAGE: ExpectedBody<AnthropicModelPage> = {
  what: 'a model list',
  is: (value): value is AnthropicModelPage => isRecord(value) && Array.isArray(value['data']),
};

/** Anthropic's largest page: one call for today's list. */
const PAGE_SIZE = 1000;
/** A server that keeps saying has_more must not keep discovery busy forever. */
const MAX_PAGES = 20;

function unixSeconds(iso: unknown): number {
  const ms = typeof iso === 'string' ? Date.parse(iso) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

export function fromAnthropicModels(prefix: string, infos: readonly AnthropicModelInfo[]): Model[] {
  const out: Model[] = [];
  for (const info of infos) {
    if (typeof info.id !== 'string' || info.id === '') continue;
    const model: Model = { id: `${prefix}/${info.id}`, object: 'model', created: unixSeconds(info.created_at), owned_by: 'anthropic', metadata: {} };
    if (typeof info.display_name === 'string' && info.display_name !== '') model.metadata.display_name = info.display_name;
    out.push(model);
  }
  return out;
}

export function listModels(upstream: UpstreamClient, ep: AnthropicEndpoint) {
  return async (signal: AbortSignal): Promise<Model[]> => {
    const infos: AnthropicModelInfo[] = [];
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = after === null ? `?limit=${PAGE_SIZE}` : `?limit=${PAGE_SIZE}&after_id=${encodeURIComponent(after)}`;
      const res = await callAnthropic(upstream, ep, 'GET', ep.modelsUrl + query, null, signal);
      const list = await readJson(res, PAGE);
      infos.push(...list.data);
      if (list.has_more !== true) return fromAnthropicModels(ep.name, infos);
      if (typeof list.last_id !== 'string' || list.last_id === after) {
        throw providerFailed(ep.name, `provider '${ep.name}' said its model list has more pages but gave no new last_id`);
      }
      after = list.last_id;
    }
    throw providerFailed(ep.name, `provider '${ep.name}' kept paging its model list past ${MAX_PAGES} pages`);
  };
}
