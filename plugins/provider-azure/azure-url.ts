// Where an Azure OpenAI call goes: the deployment is in the path and the api-version in the
// query, {base}/openai/deployments/{deployment}{path}?api-version={version}. The model name of a
// client's id (`azure/<name>`) is the deployment, unless the instance's `deployments` map names
// another for it.

export type DeploymentMap = Readonly<Record<string, string>>;

export function deploymentFor(model: string, deployments: DeploymentMap): string {
  return Object.hasOwn(deployments, model) ? deployments[model]! : model;
}

/** The endpoint's `url(path, model)` for one Azure resource; the parts that never change are built once. */
export function azureUrl(baseUrl: string, apiVersion: string, deployments: DeploymentMap): (path: string, model: string) => string {
  // Operators often paste the endpoint with `/openai` already on it.
  const root = baseUrl.replace(/\/+$/, '').replace(/\/openai$/, '') + '/openai/deployments/';
  const query = '?api-version=' + encodeURIComponent(apiVersion);
  return (path, model) => root + encodeURIComponent(deploymentFor(model, deployments)) + path + query;
}
