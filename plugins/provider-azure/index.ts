// Azure OpenAI: OpenAI's API with the deployment in the path, the api-version in the query and
// the key in an `api-key` header. provider-openai's handlers serve it through the endpoint's
// `url(path, model)` hook; the model name of `azure/<name>` is the deployment (or is mapped to
// one by the instance's `deployments`).
import { definePlugin } from '../../core/plugin.js';
import { createOpenAIProvider, openAIEndpoint } from '../provider-openai/provider.js';
import { instanceOptionsCheck } from '../provider-openai-compatible/instance-options.js';
import { DEFAULT_API_VERSION } from './api-version.js';
import { azureUrl } from './azure-url.js';
import { deploymentModels } from './deployment-models.js';
import { AZURE_OPTIONS } from './options.js';
import type { AzureOptions } from './options.js';

/** Deployments serve chat and embeddings; Responses is derived from chat. */
const OPERATIONS = ['chat', 'embeddings'] as const;

export default definePlugin({
  name: 'provider-azure',
  setup(gw) {
    const instances = gw.providerInstances({
      type: 'azure',
      enabledBy: 'api_key',
      apiKeyEnv: 'AZURE_OPENAI_API_KEY',
      baseUrlEnv: 'AZURE_OPENAI_BASE_URL',
      extraEnv: { api_version: 'AZURE_OPENAI_API_VERSION' },
    });
    // Each Azure resource has its own endpoint, so a key without one cannot be used.
    if (instances.length === 0 && gw.loaded.env['AZURE_OPENAI_API_KEY'] && !gw.loaded.env['AZURE_OPENAI_BASE_URL']) {
      gw.logger.warn('AZURE_OPENAI_API_KEY is set but AZURE_OPENAI_BASE_URL is not (e.g. https://myres.openai.azure.com): azure stays off');
    }
    const check = instanceOptionsCheck(AZURE_OPTIONS);
    for (const instance of instances) {
      check(gw.loaded.source, instance);
      const options = instance.options as AzureOptions;
      const apiVersion = options.api_version ?? DEFAULT_API_VERSION;
      const deployments = options.deployments ?? {};
      const ep = openAIEndpoint({
        name: instance.name,
        type: 'azure',
        baseUrl: instance.baseUrl,
        apiKey: instance.apiKey,
        authHeaders: instance.apiKey === null ? {} : { 'api-key': instance.apiKey },
        url: azureUrl(instance.baseUrl, apiVersion, deployments),
      });
      const provider = createOpenAIProvider(gw.upstream, ep, OPERATIONS);
      const listModels = Object.keys(deployments).length > 0 ? () => Promise.resolve(deploymentModels(instance.name, deployments)) : undefined;
      gw.registerProvider({ ...provider, listModels });
      gw.logger.info(`provider '${instance.name}' (azure, api-version ${apiVersion}) enabled at ${instance.baseUrl}`);
    }
  },
});
