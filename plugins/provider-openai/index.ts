// OpenAI (and any server with OpenAI's own API, under more prefixes via `providers:`):
// chat completions, responses and compaction, embeddings, model discovery.
import { definePlugin } from '../../core/plugin.js';
import { createOpenAIProvider, openAIEndpoint } from './provider.js';

export default definePlugin({
  name: 'provider-openai',
  setup(gw) {
    const instances = gw.providerInstances({
      type: 'openai',
      enabledBy: 'api_key',
      apiKeyEnv: 'OPENAI_API_KEY',
      baseUrlEnv: 'OPENAI_BASE_URL',
      defaultBaseUrl: 'https://api.openai.com/v1',
    });
    for (const instance of instances) {
      const ep = openAIEndpoint({ name: instance.name, type: 'openai', baseUrl: instance.baseUrl, apiKey: instance.apiKey });
      gw.registerProvider(createOpenAIProvider(gw.upstream, ep));
      gw.logger.info(`provider '${instance.name}' enabled at ${instance.baseUrl}`);
    }
  },
});
