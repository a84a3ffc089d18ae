// Azure's model list is the instance's `deployments` map: its names, as `azure/<name>`. The data
// plane cannot list deployments with an api-key (GET /openai/deployments went away after
// 2023-03-15-preview; only the ARM management plane lists them, with an Entra token), and
// GET /openai/models lists the base and fine-tuned models the resource could deploy, whose ids
// would 404 here unless a deployment had the same name. Without a map the provider lists nothing
// and any `azure/<deployment>` is still routed.
import type { Model } from '../../core/types/models.js';
import type { DeploymentMap } from './azure-url.js';

export function deploymentModels(prefix: string, deployments: DeploymentMap): Model[] {
  return Object.keys(deployments).map((name) => ({ id: `${prefix}/${name}`, object: 'model', created: 0, owned_by: 'azure', metadata: {} }));
}
