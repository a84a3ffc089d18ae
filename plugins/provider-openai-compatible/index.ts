// The OpenAI-compatible family (groq, mistral, xai, deepseek, openrouter, together, fireworks;
// self-hosted ollama, vllm, llamacpp, lmstudio): one implementation, provider-openai's, configured
// per provider by the rows of providers-table.ts. More instances of a type come from `providers:`
// (`local-vllm: {type: vllm, base_url: ...}`).
import { definePlugin } from '../../core/plugin.js';
import { compatibleProvider } from './compatible-provider.js';
import { instanceOptionsCheck } from './instance-options.js';
import { PROVIDERS } from './providers-table.js';

export default definePlugin({
  name: 'provider-openai-compatible',
  setup(gw) {
    for (const row of PROVIDERS) {
      const instances = gw.providerInstances({ type: row.type, enabledBy: row.enabledBy, defaultBaseUrl: row.defaultBaseUrl });
      if (instances.length === 0) continue;
      const check = instanceOptionsCheck(row.options ?? {});
      for (const instance of instances) {
        check(gw.loaded.source, instance);
        gw.registerProvider(compatibleProvider(gw.upstream, row, instance));
        gw.logger.info(`provider '${instance.name}' (${row.type}) enabled at ${instance.baseUrl}`);
      }
    }
  },
});
