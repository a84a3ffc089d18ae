// Test-only: the child side of test-child-gateway.ts. Starts a test gateway with the options it was
// given, tells the parent its URL, and closes when told to or when the parent goes away.
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { StartOptions } from '../../test/helpers/start-gateway.js';

const gw = await startTestGateway(JSON.parse(process.env['SLUICE_TEST_GATEWAY']!) as StartOptions);
process.send!({ url: gw.url });
const stop = (): void => {
  void gw.close().then(() => process.exit(0));
};
process.once('message', stop);
process.once('disconnect', stop);
