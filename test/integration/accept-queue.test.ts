// A burst of new connections (issue 20: a thousand clients opening streams at once) is taken
// whole into the listening socket's accept queue: a connection the kernel dropped for a full
// queue would be tried again by the client's TCP only a second later. The sockets are opened in
// one turn of the event loop, so the gateway accepts none of them until all are on their way.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { startTestGateway } from '../helpers/start-gateway.js';

const CONNECTIONS = 1000;
/** The kernel caps a listen backlog at this; below the burst, no gateway setting can help. */
const SOMAXCONN = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));

describe('the accept queue @integration', function () {
  this.timeout(30_000);

  it(`takes ${CONNECTIONS} connections opened at once without dropping any`, async function () {
    if (SOMAXCONN < CONNECTIONS) this.skip();
    const gw = await startTestGateway();
    const sockets: Socket[] = [];
    try {
      const { port } = new URL(gw.url);
      const started = performance.now();
      const connected = Array.from({ length: CONNECTIONS }, () => {
        const socket = connect(Number(port), '127.0.0.1');
        sockets.push(socket);
        return new Promise<number>((resolve, reject) => {
          socket.once('connect', () => resolve(performance.now() - started));
          socket.once('error', reject);
        });
      });
      const slowest = Math.max(...(await Promise.all(connected)));
      // A dropped SYN is sent again after one second: every connection must beat that.
      expect(slowest, `slowest connection ${slowest.toFixed(0)} ms`).to.be.below(900);
    } finally {
      for (const s of sockets) s.destroy();
      await gw.close();
    }
  });
});
