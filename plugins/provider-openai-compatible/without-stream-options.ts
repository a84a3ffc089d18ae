// For servers that reject `stream_options` with a validation error (Mistral answers 422
// "extra_forbidden" for `stream_options.include_usage`) and report stream usage unasked. The
// endpoint then never adds the field, and this keeps a client's own `stream_options` (LangChain
// sends one by default) from breaking the call. The field is swapped out of the parsed body for
// the upstream call and put back afterwards, as request-body.ts does, so failover and the audit
// log still see the request as received; the client's wish for the usage chunk is read after the
// handler returns, so it still holds.
import type { OperationHandler } from '../../core/provider.js';

export function withoutStreamOptions(handler: OperationHandler): OperationHandler {
  return async (ctx, target) => {
    const body = ctx.body!;
    const saved = body['stream_options'];
    if (saved === undefined) return handler(ctx, target);
    body['stream_options'] = undefined;
    try {
      return await handler(ctx, target);
    } finally {
      body['stream_options'] = saved;
    }
  };
}
