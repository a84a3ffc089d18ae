import { expect } from 'chai';
import { azureUrl, deploymentFor } from './azure-url.js';

describe('provider-azure: where a call goes', () => {
  it('puts the deployment in the path and the api-version in the query', () => {
    const url = azureUrl('https://myres.openai.azure.com', '2024-10-21', {});
    expect(url('/chat/completions', 'my-gpt4o')).to.equal('https://myres.openai.azure.com/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21');
    expect(url('/embeddings', 'embed-small')).to.equal('https://myres.openai.azure.com/openai/deployments/embed-small/embeddings?api-version=2024-10-21');
  });

  it('maps a model name to its deployment through the instance map, else uses it as is', () => {
    const deployments = { 'gpt-4o': 'prod-gpt4o-eu' };
    expect(deploymentFor('gpt-4o', deployments)).to.equal('prod-gpt4o-eu');
    expect(deploymentFor('other', deployments)).to.equal('other');
    expect(deploymentFor('constructor', deployments)).to.equal('constructor');
    expect(azureUrl('https://myres.openai.azure.com', '2024-10-21', deployments)('/chat/completions', 'gpt-4o')).to.equal(
      'https://myres.openai.azure.com/openai/deployments/prod-gpt4o-eu/chat/completions?api-version=2024-10-21',
    );
  });

  it('accepts the endpoint with a trailing slash or with /openai already on it', () => {
    const expected = 'https://myres.openai.azure.com/openai/deployments/d/chat/completions?api-version=2025-04-01-preview';
    expect(azureUrl('https://myres.openai.azure.com/', '2025-04-01-preview', {})('/chat/completions', 'd')).to.equal(expected);
    expect(azureUrl('https://myres.openai.azure.com/openai', '2025-04-01-preview', {})('/chat/completions', 'd')).to.equal(expected);
    expect(azureUrl('https://myres.openai.azure.com/openai/', '2025-04-01-preview', {})('/chat/completions', 'd')).to.equal(expected);
  });

  it('encodes what does not belong in a path segment or a query value', () => {
    const url = azureUrl('https://myres.openai.azure.com', '2024-10-21&x=1', {});
    expect(url('/chat/completions', 'a/b c')).to.equal('https://myres.openai.azure.com/openai/deployments/a%2Fb%20c/chat/completions?api-version=2024-10-21%26x%3D1');
  });
});
