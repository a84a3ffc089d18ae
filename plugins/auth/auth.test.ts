import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { bearerToken } from './index.js';
import { MASTER_KEY_FILE, resolveMasterKey } from './master-key.js';
import { masterMatcher } from './master-match.js';

/** Runs `fn` with process.stdout captured, and returns what it printed. */
async function captureStdout(fn: () => Promise<void>): Promise<string> {
  const original = process.stdout.write.bind(process.stdout);
  let printed = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = original;
  }
  return printed;
}

describe('auth', () => {
  describe('bearer parsing', () => {
    const cases: Array<[string | undefined, string | null]> = [
      ['Bearer sk-abc', 'sk-abc'],
      ['bearer sk-abc', 'sk-abc'],
      ['BEARER sk-abc', 'sk-abc'],
      ['Bearer   sk-abc  ', 'sk-abc'],
      ['Bearer sk with space', 'sk with space'],
      [undefined, null],
      ['', null],
      ['Bearer', null],
      ['Bearer ', null],
      ['Bearer    ', null],
      ['Bearersk-abc', null],
      ['Bearer\tsk-abc', null],
      ['Basic dTpw', null],
      ['Token sk-abc', null],
      ['sk-abc', null],
    ];
    for (const [header, token] of cases) {
      it(`${JSON.stringify(header)} -> ${JSON.stringify(token)}`, () => {
        expect(bearerToken(header)).to.equal(token);
      });
    }
  });

  describe('master key comparison', () => {
    const key = 'sk-master-0123456789';
    const isMaster = masterMatcher(key);

    it('matches the key itself, again and again', () => {
      expect(isMaster(key)).to.equal(true);
      expect(isMaster(key)).to.equal(true);
    });

    it('refuses prefixes, extensions and near misses', () => {
      for (const token of ['', 'sk', key.slice(0, -1), `${key}0`, `${key}\u0000`, `${key}é`, `${key}😀`, key.toUpperCase(), `x${key.slice(1)}`]) {
        expect(isMaster(token), JSON.stringify(token)).to.equal(false);
      }
    });

    it('refuses a token longer than the padding that starts with the key', () => {
      expect(isMaster(key + '\u0000'.repeat(200))).to.equal(false);
      expect(isMaster(key + 'a'.repeat(1000))).to.equal(false);
    });

    it('leaves no trace of one token in the comparison of the next', () => {
      expect(isMaster(`${key}tail`)).to.equal(false);
      expect(isMaster(key.slice(0, 10))).to.equal(false);
      expect(isMaster(key)).to.equal(true);
    });

    it('compares UTF-8 bytes, and handles keys longer than the padding', () => {
      const accented = masterMatcher('sk-clé-secrète');
      expect(accented('sk-clé-secrète')).to.equal(true);
      expect(accented('sk-cle-secrete')).to.equal(false);
      const long = 'k'.repeat(200);
      const isLong = masterMatcher(long);
      expect(isLong(long)).to.equal(true);
      expect(isLong(long.slice(1))).to.equal(false);
      expect(isLong(`${long}é`)).to.equal(false);
    });
  });

  describe('master key', () => {
    let dir: string;

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'sluice-auth-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('a configured key is used as is and nothing is written', () => {
      expect(resolveMasterKey('sk-configured-key-123', dir)).to.deep.equal({ secret: 'sk-configured-key-123', generated: false, file: null });
      expect(existsSync(join(dir, MASTER_KEY_FILE))).to.equal(false);
    });

    it('is generated once into the data dir with mode 0600, then reused', () => {
      const first = resolveMasterKey(null, dir);
      const file = join(dir, MASTER_KEY_FILE);
      expect(first.generated).to.equal(true);
      expect(first.file).to.equal(file);
      expect(first.secret).to.match(/^sk-sluice-[A-Za-z0-9_-]{32}$/);
      expect(readFileSync(file, 'utf8')).to.equal(`${first.secret}\n`);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(resolveMasterKey(null, dir)).to.deep.equal({ secret: first.secret, generated: false, file });
    });

    it('a key file that is too short to be a key is replaced', () => {
      writeFileSync(join(dir, MASTER_KEY_FILE), 'short\n', { mode: 0o600 });
      const key = resolveMasterKey(null, dir);
      expect(key.generated).to.equal(true);
      expect(key.secret).to.not.equal('short');
    });

    it('is not printed when the log is JSON lines: the file holds it', async () => {
      const printed = await captureStdout(async () => {
        const gw = await startTestGateway({ dataDir: dir, config: { master_key: null, log: { format: 'json' } } });
        await gw.close();
      });
      const secret = readFileSync(join(dir, MASTER_KEY_FILE), 'utf8').trim();
      expect(secret).to.match(/^sk-sluice-/);
      expect(printed).not.to.include(secret);
    });

    it('is printed (text logs) only on the start that generated it, and works as the bearer credential after a restart', async () => {
      const config = { master_key: null, log: { format: 'text' as const } };
      let gw: TestGateway | null = null;
      const printedFirst = await captureStdout(async () => {
        gw = await startTestGateway({ dataDir: dir, config });
      });
      await gw!.close();
      const secret = readFileSync(join(dir, MASTER_KEY_FILE), 'utf8').trim();
      expect(printedFirst).to.include(`\n    ${secret}\n`);
      expect(printedFirst.split(secret)).to.have.length(2);

      const printedAgain = await captureStdout(async () => {
        gw = await startTestGateway({ dataDir: dir, config });
      });
      try {
        expect(printedAgain).to.equal('');
        expect(readFileSync(join(dir, MASTER_KEY_FILE), 'utf8').trim()).to.equal(secret);
        expect((await gw!.fetch('/v1/models', { headers: { authorization: `Bearer ${secret}` } })).status).to.equal(200);
        expect((await gw!.fetch('/v1/models', { headers: { authorization: `Bearer ${secret}x` } })).status).to.equal(401);
      } finally {
        await gw!.close();
      }
    });

    it('GATEWAY_MASTER_KEY is the credential, and no key file is written', async () => {
      const gw = await startTestGateway({ dataDir: dir, config: { master_key: null }, env: { GATEWAY_MASTER_KEY: 'sk-from-the-environment' } });
      try {
        expect((await gw.fetch('/v1/models', { headers: { authorization: 'Bearer sk-from-the-environment' } })).status).to.equal(200);
        expect(existsSync(join(dir, MASTER_KEY_FILE))).to.equal(false);
      } finally {
        await gw.close();
      }
    });
  });
});
