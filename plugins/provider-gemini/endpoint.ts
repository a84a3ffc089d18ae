// One Gemini API instance: where it is and the headers every call carries, built once at boot.
// The API key travels in `x-goog-api-key`, never as `?key=` in the URL: URLs end up in access
// logs, proxies' logs and traces, headers do not.
import { modelNotFound } from '../../core/errors.js';
import type { Target } from '../../core/provider.js';

export interface GeminiEndpoint {
  /** The provider prefix (for errors). */
  name: string;
  /** The base URL as configured, without a trailing slash (passthrough goes here). */
  baseUrl: string;
  /** `{base}/v1beta`, where the model methods live. */
  apiRoot: string;
  /** For GET calls: the credential. */
  headers: Record<string, string>;
  /** For POST calls: the credential and the JSON content type. */
  jsonHeaders: Record<string, string>;
  /** The credential alone, which replaces a client's on passthrough. */
  authHeaders: Record<string, string>;
}

export type GeminiModelMethod = 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';

const API_VERSION = 'v1beta';

// An operator may give the base URL with the version already on it (…/v1beta); it is not doubled.
const VERSIONED = /\/v1(?:alpha|beta)?$/;

export function geminiEndpoint(name: string, baseUrl: string, apiKey: string | null): GeminiEndpoint {
  const base = baseUrl.replace(/\/+$/, '');
  const authHeaders: Record<string, string> = apiKey === null ? {} : { 'x-goog-api-key': apiKey };
  return {
    name,
    baseUrl: base,
    apiRoot: VERSIONED.test(base) ? base : `${base}/${API_VERSION}`,
    headers: { ...authHeaders, 'user-agent': 'sluice' },
    jsonHeaders: { ...authHeaders, 'user-agent': 'sluice', 'content-type': 'application/json' },
    authHeaders,
  };
}

// A model name goes into the URL path, so anything beyond a plain name (a slash, "..", a "?")
// could steer the call, with the gateway's key, to another endpoint of the API.
const MODEL_NAME = /^(?:models\/)?([A-Za-z0-9][A-Za-z0-9._-]*)$/;

/** `{base}/v1beta/models/{model}:{method}`; a model that cannot be a Gemini name is not found. */
export function modelMethodUrl(ep: GeminiEndpoint, target: Target, method: GeminiModelMethod): string {
  const name = MODEL_NAME.exec(target.model)?.[1];
  if (name === undefined) throw modelNotFound(target.id);
  return `${ep.apiRoot}/models/${name}:${method}`;
}

/** One page of `GET {base}/v1beta/models`. */
export function modelListUrl(ep: GeminiEndpoint, pageSize: number, pageToken: string | undefined): string {
  const token = pageToken === undefined ? '' : `&pageToken=${encodeURIComponent(pageToken)}`;
  return `${ep.apiRoot}/models?pageSize=${pageSize}${token}`;
}
