// Asserting the contract's error envelope exactly: status, JSON content type, the request id,
// and the whole `{error:{...}}` body (so a missing `code`/`param` key or a stray `provider` fails).
import { expect } from 'chai';

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
