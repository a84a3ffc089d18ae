// Google Gemini through its native API (generativelanguage.googleapis.com, v1beta): chat
// completions with tools, images, JSON schema and thinking; embeddings; model discovery;
// passthrough. More instances under other prefixes come from `providers:` (type: gemini).
import { definePlugin } from '../../core/plugin.js';
import { geminiEndpoint } from './endpoint.js';
import { createGeminiProvider } from './provider.js';

const NAME = 'provider-gemini';

export default definePlugin({
  name: NAME,
  setup(gw) {
    const instances = gw.providerInstances({
      type: 'gemini',
      enabledBy: 'api_key',
      apiKeyEnv: 'GEMINI_API_KEY',
      baseUrlEnv: 'GEMINI_BASE_URL',
      defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    });
    for (const instance of instances) {
      // Gemini instances take no options of their own; a key here is most likely a typo.
      const unknown = Object.keys(instance.options);
      if (unknown.length > 0) gw.logger.warn(`provider '${instance.name}': ignoring unknown option(s) ${unknown.join(', ')}`);
      gw.registerProvider(createGeminiProvider(gw.upstream, geminiEndpoint(instance.name, instance.baseUrl, instance.apiKey)));
      gw.logger.info(`provider '${instance.name}' enabled at ${instance.baseUrl}`);
    }
  },
});
