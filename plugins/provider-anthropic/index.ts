// Anthropic's Messages API behind the OpenAI-compatible routes: chat completions (streaming,
// tools, images, thinking as reasoning_content), model discovery and passthrough, for the
// default `anthropic` instance and any other `type: anthropic` entry of `providers:`.
import { definePlugin } from '../../core/plugin.js';
import { anthropicEndpoint } from './endpoint.js';
import { anthropicOptions } from './options.js';
import { createAnthropicProvider } from './provider.js';

export default definePlugin({
  name: 'provider-anthropic',
  setup(gw) {
    const instances = gw.providerInstances({
      type: 'anthropic',
      enabledBy: 'api_key',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      baseUrlEnv: 'ANTHROPIC_BASE_URL',
      defaultBaseUrl: 'https://api.anthropic.com',
    });
    for (const instance of instances) {
      const ep = anthropicEndpoint(instance, anthropicOptions(gw.loaded.source, instance.name, instance.options));
      gw.registerProvider(createAnthropicProvider(gw.upstream, ep));
      gw.logger.info(`provider '${instance.name}' enabled at ${instance.baseUrl}`);
    }
  },
});
