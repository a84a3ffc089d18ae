import { expect } from 'chai';
import { deploymentModels } from './deployment-models.js';

describe('provider-azure: the model list', () => {
  it('lists the names of the deployments map under the prefix', () => {
    expect(deploymentModels('azure-eu', { 'gpt-4o': 'prod-gpt4o', 'text-embedding-3-small': 'embed' })).to.deep.equal([
      { id: 'azure-eu/gpt-4o', object: 'model', created: 0, owned_by: 'azure', metadata: {} },
      { id: 'azure-eu/text-embedding-3-small', object: 'model', created: 0, owned_by: 'azure', metadata: {} },
    ]);
  });

  it('lists nothing without a map', () => {
    expect(deploymentModels('azure', {})).to.deep.equal([]);
  });
});
