// /v1/responses for every provider: native where the provider has it (OpenAI), otherwise
// translated to and from the provider's chat API. A derivation never replaces a native
// handler (core/provider.ts), so native Responses providers are left alone.
import { definePlugin } from '../../core/plugin.js';
import { deriveResponses } from './derived-handler.js';

export default definePlugin({
  name: 'responses-adapter',
  setup(gw) {
    gw.providers.addDerivation({ operation: 'responses', from: 'chat', derive: deriveResponses });
  },
});
