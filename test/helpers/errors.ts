// Asserting the contract's error envelope exactly: status, JSON content type, the request id,
// and the whole `{error:{...}}` body (so a missing `code`/`param` key or a stray `provider` fails).
import { expect } from 'chai';
import { APIError } from 'openai';
import { isGatewayError } from '../../core/errors.js';
import type { GatewayError } from '../../core/errors.js';

export interface ExpectedError {
  message: string;
  type: string;
  code: string | null;
  param: string | null;
  provider?: string;
}

export const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function expectError(res: Response, status: number, error: ExpectedError): Promise<void> {
  const text = await res.text();
  expect(res.status, text).to.equal(status);
  expect(res.headers.get('content-type')).to.equal('application/json');
  expect(res.headers.get('x-request-id')).to.match(REQUEST_ID);
  expect(JSON.parse(text)).to.deep.equal({ error });
}

/** The GatewayError `fn` throws (a pure translator refusing its input); fails when it throws none. */
export function thrownGatewayError(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (err) {
    if (isGatewayError(err)) return err;
    throw err;
  }
  throw new Error('expected a GatewayError');
}

/** The openai SDK's error for a call through the gateway; fails when the call succeeds. */
export async function sdkError(call: Promise<unknown>): Promise<APIError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof APIError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}
