// Passthrough: `/p/{provider}/{path}` (any method) goes to the provider's own API as it is,
// with the provider's credential in place of the client's, bodies and statuses untranslated
// and streams unbuffered. It is still a model operation: authenticated, labelled, priced and
// audited by the same stages as every call (and limited, once a limit plugin exists); this
// plugin routes it (the provider is in the path, so the route stage has nothing to look up),
// proxies it in the forward stage, and leaves behind what the price and log stages read
// (status, model, the kept bodies, usage). docs/passthrough.md has the whole contract.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { RequestContext } from '../../core/context.js';
import { forbidden } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { HANDLED } from '../../core/reply.js';
import type { Reply } from '../../core/reply.js';
import { ORDER } from '../../core/stages.js';
import { isModelAllowed } from '../router/allowed-models.js';
import type { PassthroughProxy } from './passthrough-proxy.js';
import { PassthroughTargets } from './passthrough-targets.js';
import { ProxiedCall } from './proxied-call.js';
import type { CallSettings } from './proxied-call.js';
import { RequestHeaderPolicy } from './request-headers.js';
import { passthroughSchema } from './schema.js';
import type { PassthroughOptions } from './schema.js';
import { upstreamUrl } from './upstream-url.js';

const NAME = 'passthrough';
const OPERATION = 'passthrough';
/** Idle pooled connections are closed after this (sooner when the provider announces less). */
const IDLE_SOCKET_MS = 30_000;

export default definePlugin<PassthroughOptions>({
  name: NAME,
  schema: passthroughSchema,
  setup(gw, options) {
    const upstream = gw.loaded.config.upstream;
    const agentOptions = { keepAlive: true, maxSockets: upstream.connections_per_origin ?? Infinity, timeout: IDLE_SOCKET_MS };
    const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
    const targets = new PassthroughTargets();
    // Made at the first passthrough call: http-proxy-3 (about 1.5 MB of heap with what it
    // requires) is not loaded by a gateway nobody calls through /p/.
    let proxy: Promise<PassthroughProxy> | null = null;
    let settings: CallSettings | null = null;

    gw.lifecycle.ready.tap(NAME, () => {
      // After every setup: providers register in their plugins' setup, and the tagging plugin
      // may come after this one in the list, yet its DONOTPASS headers must never leak.
      targets.build(gw.providers, agents);
      const models = gw.services.models;
      settings = {
        captureLimit: options.capture_limit_bytes,
        connectTimeoutMs: upstream.connect_timeout_ms,
        firstByteTimeoutMs: upstream.first_byte_timeout_ms,
        idleTimeoutMs: upstream.idle_timeout_ms,
        headers: new RequestHeaderPolicy(gw.services.tagging?.doNotPass ?? []),
        modelMetadata: (id) => models?.metadata(id) ?? null,
      };
    });
    gw.lifecycle.close.tap(NAME, () => {
      agents.http.destroy();
      agents.https.destroy();
    });

    gw.addRoute({ method: '*', path: '/p/:provider/*', access: 'client', operation: OPERATION, body: 'raw' });

    // Before validation and the router: the provider is in the path, and the router leaves a
    // request that already has a target alone.
    gw.stages.route.tap({ name: NAME, stage: ORDER.VALIDATE - 1 }, (ctx: RequestContext) => {
      if (ctx.route.operation !== OPERATION) return;
      const name = ctx.params['provider']!;
      const route = targets.get(name);
      // The model is in a body nobody has read yet: a key limited to some models may use
      // passthrough only to a provider all of whose models it may use.
      if (!isModelAllowed(ctx.principal?.allowedModels ?? null, `${name}/*`)) {
        throw forbidden(`this key may not use passthrough to '${name}': its allowed models must include '${name}/*'`, 'model_not_allowed');
      }
      const url = upstreamUrl(route, ctx.params['*']!, search(ctx.req.url));
      ctx.target = { provider: route.provider, model: url.pathname, id: `${name}/passthrough`, metadata: null };
      ctx.locals.passthrough = { url, request: null, response: null };
    });

    gw.stages.forward.tapPromise({ name: NAME, stage: ORDER.FIRST }, async (ctx: RequestContext): Promise<Reply | undefined> => {
      if (ctx.route.operation !== OPERATION) return undefined;
      const locals = ctx.locals.passthrough!;
      proxy ??= import('./passthrough-proxy.js').then((m) => new m.PassthroughProxy());
      const ready = await proxy;
      const call = new ProxiedCall(ctx, targets.get(ctx.target!.provider.name), locals, settings!);
      await ready.forward(ctx, call);
      return HANDLED;
    });
  },
});

function search(url: string | undefined): string {
  const q = url === undefined ? -1 : url.indexOf('?');
  return q === -1 ? '' : url!.slice(q);
}
