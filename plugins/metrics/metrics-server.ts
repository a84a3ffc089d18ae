// The metrics on a port of their own, away from client traffic (a scraper on a private
// network, the gateway's port public). Anything but GET on the metrics path is 404.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeNotFound, toGatewayError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';

export type ScrapeHandler = (req: IncomingMessage) => Promise<{ contentType: string; body: string }>;

export class MetricsServer {
  readonly #server: Server;

  constructor(path: string, handle: ScrapeHandler, logger: Logger) {
    this.#server = createServer((req, res) => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const requested = q === -1 ? url : url.slice(0, q);
      const answer = req.method === 'GET' && requested === path ? handle(req) : Promise.reject(routeNotFound(req.method ?? 'GET', requested));
      answer.then(
        (scraped) => {
          res.writeHead(200, { 'content-type': scraped.contentType });
          res.end(scraped.body);
        },
        (err: unknown) => {
          const e = toGatewayError(err);
          if (e.status === 500) logger.error('metrics scrape failed', { error: (err as Error).message });
          sendError(res, e.status, JSON.stringify(e.toEnvelope()));
        },
      );
    });
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve(this.#server.address() as AddressInfo);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

function sendError(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
