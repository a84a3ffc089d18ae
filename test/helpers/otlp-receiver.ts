// An OTLP/HTTP trace receiver on 127.0.0.1 for tests: keeps each export (its path, headers and
// exact text) and answers 200, or what the test scripted for the next exports.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: unknown };
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
}

export interface OtlpExport {
  resourceSpans: Array<{ resource: { attributes: OtlpAttribute[] }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
}

export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent. */
  text: string;
  body: OtlpExport;
}

/** A scripted answer: a status with its headers, or `hang` (read the export, never answer). */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hang';

export interface OtlpReceiver {
  url: string;
  received: ReceivedExport[];
  /** Answers for the next exports, in order; once they are used up every export gets 200. */
  answers: ReceiverAnswer[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const answers: ReceiverAnswer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, text, body: JSON.parse(text) as OtlpExport });
      const answer = answers.shift() ?? { status: 200 };
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.status === 200 ? '{}' : '{"code":3,"message":"scripted refusal"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
