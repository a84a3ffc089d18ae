// The operator log: JSON lines or text, credentials redacted by metadata name and scrubbed by
// value from every line, whatever a message quotes.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger, resolveFormat } from './logger.js';

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
      done();
    },
  });
  return { stream, lines };
}

describe('operator logger', () => {
  it('json: one JSON object per line, with level, message, timestamp and metadata', () => {
    const { stream, lines } = sink();
    createLogger('info', { format: 'json', stream }).child({ plugin: 'audit' }).warn('queue is long', { request_id: 'r-1', queued: 12 });
    expect(lines).to.have.length(1);
    const record = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(record).to.include({ level: 'warn', message: 'queue is long', plugin: 'audit', request_id: 'r-1', queued: 12 });
    expect(record['timestamp']).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('text: time, level, plugin, message, then metadata', () => {
    const { stream, lines } = sink();
    createLogger('info', { format: 'text', stream }).child({ plugin: 'router' }).info('models listed', { count: 3 });
    expect(lines[0]).to.match(/^\d{4}-\d\d-\d\dT\S+Z info \[router\] models listed \{"count":3\}$/);
  });

  it('text: a startup line is its message alone', () => {
    const { stream, lines } = sink();
    createLogger('info', { format: 'text', stream }).info('data dir: /app/data', { startup: 'data dir' });
    expect(lines[0]).to.match(/^\S+Z info data dir: \/app\/data$/);
  });

  it('honours the level', () => {
    const { stream, lines } = sink();
    const logger = createLogger('warn', { format: 'json', stream });
    logger.info('not shown');
    logger.debug('not shown');
    logger.error('shown');
    expect(lines.map((l) => (JSON.parse(l) as { message: string }).message)).to.deep.equal(['shown']);
  });

  for (const format of ['json', 'text'] as const) {
    it(`${format}: never prints a credential, by metadata name or by value`, () => {
      const { stream, lines } = sink();
      const logger = createLogger('debug', { format, stream, secrets: ['sk-upstream-secret-1', 'sk-master-secret-2', 'short'] });
      logger.error('provider said: invalid key sk-upstream-secret-1 (sk-upstream-secret-1)');
      logger.warn('call failed', { api_key: 'anything-at-all', authorization: 'Bearer whatever-it-is', 'x-api-key': 'k-3', key_id: 'key_42', detail: { master_key: 'nested-secret' } });
      logger.info('master is sk-master-secret-2', { echoed: 'Bearer sk-master-secret-2' });
      const text = lines.join('\n');
      for (const secret of ['sk-upstream-secret-1', 'sk-master-secret-2', 'anything-at-all', 'whatever-it-is', 'k-3', 'nested-secret']) expect(text).not.to.contain(secret);
      expect(text).to.contain('invalid key [redacted] ([redacted])');
      expect(text).to.contain('key_42');
    });
  }

  it('auto is text in a terminal, JSON lines otherwise', () => {
    const tty = process.stdout.isTTY;
    try {
      process.stdout.isTTY = true;
      expect(resolveFormat('auto')).to.equal('text');
      process.stdout.isTTY = false;
      expect(resolveFormat('auto')).to.equal('json');
      expect(resolveFormat('text')).to.equal('text');
    } finally {
      process.stdout.isTTY = tty;
    }
  });
});
