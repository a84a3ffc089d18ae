// The keys an Azure instance takes under `providers.<name>` besides the shared ones. For the
// default instance `api_version` also comes from AZURE_OPENAI_API_VERSION.
import type { DeploymentMap } from './azure-url.js';

export const AZURE_OPTIONS = {
  api_version: { type: 'string', minLength: 1 },
  deployments: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
};

/** The options once validated against AZURE_OPTIONS. */
export interface AzureOptions {
  api_version?: string;
  deployments?: DeploymentMap;
}
