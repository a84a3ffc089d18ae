// Requests node's HTTP parser refuses before there is a request to route: a bad Content-Length,
// both Content-Length and Transfer-Encoding, a bad chunk size, an unknown method, CR, LF or NUL
// in a header, headers over node's limit, a path with non-ASCII bytes. Node's own answer is a
// bare 400 or 431 with no body; this one is the contract's envelope with an x-request-id, after
// which the connection closes (the parser cannot find where a next request would start).
import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { LINGER_MS } from './early-answer.js';
import { GatewayError } from './errors.js';
import { requestId } from './request-id.js';

/** Node's parser codes that get something other than 400. */
const STATUS_OF: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const MESSAGE_OF: Readonly<Record<number, string>> = {
  400: 'the request is not valid HTTP/1.1',
  408: 'the request did not arrive in time',
  431: 'the request headers are too large',
};

const CODE_OF: Readonly<Record<number, string>> = {
  400: 'malformed_request',
  408: 'request_timeout',
  431: 'headers_too_large',
};

/** The http server's `clientError` listener: answers when it can, and closes either way. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Later data on a connection already answered comes back here: it is being drained.
  if (socket.writableEnded) return;
  if (err.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(STATUS_OF[err.code ?? ''] ?? 400));
  // Like an early answer (early-answer.ts), the rest of what the client sends is read and
  // dropped until it closes its side, so a reset cannot discard the answer; LINGER_MS at most.
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
}

/** The whole HTTP response, head and envelope, as node's own answer would be one write. */
export function clientErrorResponse(status: number): string {
  const error = new GatewayError({ status, type: 'invalid_request_error', message: MESSAGE_OF[status]!, code: CODE_OF[status]! });
  const body = JSON.stringify(error.toEnvelope());
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nx-request-id: ${requestId()}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/** Whether an answer to an earlier request on this connection has already sent bytes (as node checks). */
function responseStarted(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  return current !== undefined && current !== null && current.headersSent;
}
