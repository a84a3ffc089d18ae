// Per-user attribution: request headers named by TAGGING_HEADER_<n> (or the `headers`
// option) become labels on the request, next to the labels of the caller's key. Headers
// marked DONOTPASS are listed for the passthrough plugin to strip.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { readLabels } from './labels.js';
import { buildRules, rulesFromEnv } from './rules.js';
import type { HeaderOption } from './rules.js';

const NAME = 'tagging';

export interface TaggingService {
  /** Lower-case names of headers never forwarded to providers on passthrough routes. */
  doNotPass: ReadonlySet<string>;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    tagging: TaggingService;
  }
}

interface TaggingOptions {
  headers: HeaderOption[];
}

export default definePlugin<TaggingOptions>({
  name: NAME,
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      headers: {
        type: 'array',
        default: [],
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['header'],
          properties: {
            header: { type: 'string', minLength: 1 },
            label: { type: 'string', minLength: 1 },
            donotpass: { type: 'boolean' },
            delimiter: { type: 'string', minLength: 1 },
          },
        },
      },
    },
  },
  setup(gw, options) {
    const rules = buildRules(options.headers, rulesFromEnv(gw.loaded.env), gw.loaded.source);
    gw.services.tagging = { doNotPass: new Set(rules.filter((r) => r.doNotPass).map((r) => r.header)) };
    if (rules.length > 0) gw.logger.info(`labels from headers: ${rules.map((r) => `${r.header} → ${r.label}${r.doNotPass ? ' (not passed)' : ''}`).join(', ')}`);
    gw.stages.tag.tap(NAME, (ctx: RequestContext) => {
      readLabels(rules, ctx.req.headers, ctx.principal?.labels, ctx.labels);
    });
  },
});
