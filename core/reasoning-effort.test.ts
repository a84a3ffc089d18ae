import { expect } from 'chai';
import { nearestEffort } from './reasoning-effort.js';

describe('nearestEffort', () => {
  const gpt5 = ['minimal', 'low', 'medium', 'high'];
  it('keeps a supported level', () => expect(nearestEffort('medium', gpt5)).to.equal('medium'));
  it('downgrades xhigh and max to the highest level below', () => {
    expect(nearestEffort('xhigh', gpt5)).to.equal('high');
    expect(nearestEffort('max', ['low', 'medium', 'high', 'xhigh'])).to.equal('xhigh');
  });
  it('goes up only when nothing is below', () => {
    expect(nearestEffort('none', gpt5)).to.equal('minimal');
    expect(nearestEffort('minimal', ['low', 'high'])).to.equal('low');
  });
  it('picks the closest lower level across gaps', () => expect(nearestEffort('medium', ['low', 'high'])).to.equal('low'));
  it('leaves unknown levels and empty lists alone', () => {
    expect(nearestEffort('turbo', gpt5)).to.equal('turbo');
    expect(nearestEffort('max', [])).to.equal('max');
  });
});
