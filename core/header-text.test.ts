import { expect } from 'chai';
import { validateHeaderValue } from 'node:http';
import { headerSafe, isPrintableLatin1 } from './header-text.js';

describe('header text', () => {
  const ODD = ['a\rb', 'a\nb', 'a\0b', 'tab\there', 'esc\u001b', 'del\u007f', 'nel\u0085', 'wide\u0100', 'han\u4e2d', 'lone\ud800', 'pair\ud83d\ude00', 'bad\ufffd'];

  it('printable latin1 is printable; controls, DEL, C1 and anything above U+00FF are not', () => {
    expect(isPrintableLatin1('openai/gpt-4o-mini 2024:café ÿ')).to.equal(true);
    for (const text of ODD) expect(isPrintableLatin1(text), JSON.stringify(text)).to.equal(false);
  });

  it('headerSafe leaves printable text as it is (the same string)', () => {
    const text = 'gpt-4o-mini-café';
    expect(headerSafe(text)).to.equal(text);
  });

  it('headerSafe escapes each unprintable code unit as \\uXXXX, and node accepts the result', () => {
    expect(headerSafe('a\r\nb\u0100\ud800')).to.equal('a\\u000d\\u000ab\\u0100\\ud800');
    // Node itself lets a tab and the C1 controls through; the rest of ODD it refuses.
    for (const text of ODD) {
      const nodeTakes = text.startsWith('tab') || text.startsWith('nel');
      if (!nodeTakes) expect(() => validateHeaderValue('x-gateway-model', text), JSON.stringify(text)).to.throw();
      expect(() => validateHeaderValue('x-gateway-model', headerSafe(text))).to.not.throw();
    }
  });
});
