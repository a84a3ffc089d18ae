// A chat stream request's context for relay tests: no server, a response that records each write.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../../core/context.js';
import type { RouteSpec } from '../../core/routes.js';
import { chatStreamFormat } from '../../core/stream/chat-format.js';
import type { StreamCopy } from '../../core/stream/stream-copy.js';

export type RecordingResponse = ServerResponse & { writes: string[] };

/** A response that records each write. */
export function recordingResponse(): RecordingResponse {
  const writes: string[] = [];
  const res = {
    writes,
    headersSent: false,
    destroyed: false,
    writableEnded: false,
    statusCode: 200,
    setHeader() {},
    write(chunk: Buffer | string) {
      res.headersSent = true;
      writes.push(chunk.toString());
      return true;
    },
    end(chunk?: Buffer | string) {
      if (chunk !== undefined) writes.push(chunk.toString());
      res.writableEnded = true;
    },
    once() {},
    off() {},
  };
  return res as unknown as RecordingResponse;
}

/** A chat stream request's context, writing to a recording response; `copy` is what a stage asked to be kept. */
export function chatContext(includeUsage: boolean, copy: StreamCopy | null): { ctx: RequestContext; res: RecordingResponse } {
  const route: RouteSpec = { method: 'POST', path: '/v1/chat/completions', access: 'client', operation: 'chat', body: 'json', streamFormat: chatStreamFormat, handler: null };
  const req = { method: 'POST', url: route.path, headers: {}, socket: {} } as unknown as IncomingMessage;
  const res = recordingResponse();
  const ctx = new RequestContext(req, res, route, {}, route.path);
  ctx.stream = true;
  ctx.body = { stream_options: { include_usage: includeUsage } };
  ctx.streamCopy = copy;
  return { ctx, res };
}
