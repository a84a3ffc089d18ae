// Model discovery: GET {base}/v1beta/models, page after page. The number of pages is bounded
// so that an API (or a proxy) that keeps handing out page tokens cannot hold discovery forever.
import type { UpstreamClient } from '../../core/http-client.js';
import type { Model } from '../../core/types/models.js';
import { modelListUrl, type GeminiEndpoint } from './endpoint.js';
import { fromGeminiModelList } from './models.js';
import type { GeminiModelList } from './types.js';
import { callGemini, readGeminiJson } from './upstream-call.js';

/** The API's largest page: Gemini's whole catalogue fits in one or two. */
const PAGE_SIZE = 1000;
export const MAX_PAGES = 10;

export function listModels(upstream: UpstreamClient, ep: GeminiEndpoint): (signal: AbortSignal) => Promise<Model[]> {
  return async (signal) => {
    const models: Model[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await callGemini(upstream, ep, modelListUrl(ep, PAGE_SIZE, pageToken), null, signal);
      const list = await readGeminiJson<GeminiModelList>(res);
      models.push(...fromGeminiModelList(list, ep.name));
      // A token handed out twice would loop until the bound: it ends the listing instead.
      if (list.nextPageToken === undefined || list.nextPageToken === '' || list.nextPageToken === pageToken) break;
      pageToken = list.nextPageToken;
    }
    return models;
  };
}
