import { expect } from 'chai';
import { requestPolicy } from './request-policy.js';

const operations = new Set(['chat', 'embeddings', 'responses']);
const policy = (operation: string, body: Record<string, unknown>, headers: Record<string, string> = {}, cacheSideEffects = false) =>
  requestPolicy({ operation, body, headers, operations, cacheSideEffects });

describe('requestPolicy', () => {
  it('reads and stores an ordinary call', () => {
    expect(policy('chat', {})).to.equal('use');
    expect(policy('responses', { store: false })).to.equal('use');
  });

  it('skips no-store, and stores without reading on no-cache', () => {
    expect(policy('chat', {}, { 'cache-control': 'max-age=0, No-Store' })).to.equal('skip');
    expect(policy('chat', {}, { 'cache-control': 'no-cache' })).to.equal('refresh');
  });

  it('reads directives in any case from a list, no-store first; reads no other directive', () => {
    expect(policy('chat', {}, { 'cache-control': 'No-Cache, NO-STORE' })).to.equal('skip');
    expect(policy('chat', {}, { 'cache-control': 'NO-CACHE' })).to.equal('refresh');
    expect(policy('chat', {}, { 'cache-control': 'max-age=0' })).to.equal('use');
    expect(policy('chat', {}, { pragma: 'no-cache' })).to.equal('use');
  });

  it('skips calls with side effects on the provider unless configured', () => {
    expect(policy('chat', { store: true })).to.equal('skip');
    expect(policy('responses', {})).to.equal('skip');
    expect(policy('responses', { store: false, previous_response_id: 'resp_1' })).to.equal('skip');
    expect(policy('responses', {}, {}, true)).to.equal('use');
  });

  it('skips operations not configured', () => {
    expect(policy('compact', {})).to.equal('skip');
  });
});
