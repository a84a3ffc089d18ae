// The OpenAI-compatible model operations the pipeline serves. Which provider answers, and
// how, is up to plugins; the core only knows the client-facing API it speaks.
import type { RouteSpec } from './routes.js';
import { chatStreamFormat } from './stream/chat-format.js';
import { responsesStreamFormat } from './stream/responses-format.js';

export const API_ROUTES: readonly RouteSpec[] = [
  { method: 'POST', path: '/v1/chat/completions', access: 'client', operation: 'chat', body: 'json', streamFormat: chatStreamFormat, handler: null },
  { method: 'POST', path: '/v1/responses', access: 'client', operation: 'responses', body: 'json', streamFormat: responsesStreamFormat, handler: null },
  { method: 'POST', path: '/v1/responses/compact', access: 'client', operation: 'compact', body: 'json', streamFormat: null, handler: null },
  { method: 'POST', path: '/v1/embeddings', access: 'client', operation: 'embeddings', body: 'json', streamFormat: null, handler: null },
];
