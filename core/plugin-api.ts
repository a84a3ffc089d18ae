// The public entry point for plugins that live outside this repository (`sluice/plugin` in
// package.json's `exports`): what a plugin needs to define itself, tap stages, answer, fail
// and register providers, and nothing of the core's internals. Built-in plugins import the
// same modules by relative path; either way a plugin gets the one copy the gateway runs.
export { definePlugin } from './plugin.js';
export type { Gateway, GatewayServices, Lifecycle, PluginDefinition } from './plugin.js';
export { ORDER } from './stages.js';
export type { StageName, Stages } from './stages.js';
export type { Attempt, ContextLocals, CostResult, Principal, RequestContext } from './context.js';
export {
  GatewayError,
  badRequest,
  forbidden,
  isGatewayError,
  modelNotFound,
  providerFailed,
  providerStatusError,
  providerTimeout,
  rateLimited,
  unauthorized,
  unavailable,
  unsupportedOperation,
} from './errors.js';
export type { ErrorEnvelope, ErrorType } from './errors.js';
export { HANDLED, jsonReply, recordedReply, streamReply } from './reply.js';
export type { HandledReply, JsonReply, RecordedReply, Reply, StreamReply } from './reply.js';
export type { OperationHandler, PassthroughTarget, Provider, Target } from './provider.js';
export type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './http-client.js';
export { resolvedBody } from './stream/stream-fold.js';
export { StreamCopy } from './stream/stream-copy.js';
export { ChatChunkStream } from './stream/client-format-streams.js';
export type { Logger } from './logger.js';
export type { Usage } from './types/usage.js';
export type { ChatMessage } from './types/chat.js';
