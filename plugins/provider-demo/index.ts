// The offline demo provider (`demo/echo`, `demo/lorem`): on when no real provider is
// configured, so a newcomer sees the whole path work without credentials or internet; off as
// soon as a real provider is, unless `providers.demo.enabled` says otherwise.
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import { demoChat } from './chat.js';
import { demoEmbeddings } from './embeddings.js';
import { demoModels } from './models.js';

const NAME = 'provider-demo';

export default definePlugin({
  name: NAME,
  setup(gw) {
    const entry = gw.loaded.config.providers['demo'] ?? {};
    const delay = typeof entry['stream_delay_ms'] === 'number' ? entry['stream_delay_ms'] : 20;
    // Decided at ready, first: only then is it known whether any real provider registered.
    gw.lifecycle.ready.tap({ name: NAME, stage: ORDER.FIRST }, () => {
      if (entry.enabled === false) return;
      if (entry.enabled !== true && gw.providers.size > 0) return;
      const models = demoModels('demo');
      gw.registerProvider({
        name: 'demo',
        type: 'demo',
        operations: { chat: demoChat('demo', delay), embeddings: demoEmbeddings() },
        listModels: async () => models,
      });
      gw.logger.info(`no provider configured: serving the offline demo models ${models.map((m) => m.id).join(', ')}`);
    });
  },
});
