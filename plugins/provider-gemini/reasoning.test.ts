import { expect } from 'chai';
import type { ReasoningEffort } from '../../core/types/chat.js';
import { mapReasoningEffort } from './reasoning.js';

const EFFORTS: ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

function budgets(model: string): Array<number | undefined> {
  return EFFORTS.map((effort) => mapReasoningEffort(effort, model)?.thinkingBudget);
}

function levels(model: string): Array<string | undefined> {
  return EFFORTS.map((effort) => mapReasoningEffort(effort, model)?.thinkingLevel);
}

describe('mapReasoningEffort', () => {
  it('gives 2.5 Flash budgets clamped to its 24576 ceiling', () => {
    expect(budgets('gemini-2.5-flash')).to.deep.equal([0, 512, 1024, 8192, 24576, 24576, 24576]);
  });

  it('gives 2.5 Pro its 128 floor for none, since Pro cannot stop thinking', () => {
    expect(budgets('gemini-2.5-pro')).to.deep.equal([128, 512, 1024, 8192, 24576, 32768, 32768]);
  });

  it('lets 2.5 Flash-Lite turn thinking off but not go under 512 otherwise', () => {
    expect(budgets('gemini-2.5-flash-lite')).to.deep.equal([0, 512, 1024, 8192, 24576, 24576, 24576]);
  });

  it('gives Gemini 3 Pro only low and high, downgrading the rest', () => {
    expect(levels('gemini-3-pro-preview')).to.deep.equal(['low', 'low', 'low', 'low', 'high', 'high', 'high']);
  });

  it('gives Gemini 3.1 Pro medium as well', () => {
    expect(levels('gemini-3.1-pro-preview')).to.deep.equal(['low', 'low', 'low', 'medium', 'high', 'high', 'high']);
  });

  it('gives Gemini 3 Flash all four levels', () => {
    expect(levels('gemini-3-flash-preview')).to.deep.equal(['minimal', 'minimal', 'low', 'medium', 'high', 'high', 'high']);
  });

  it('never sends a budget and a level together', () => {
    expect(mapReasoningEffort('high', 'gemini-3-flash-preview')).to.deep.equal({ thinkingLevel: 'high', includeThoughts: true });
    expect(mapReasoningEffort('high', 'gemini-2.5-flash')).to.deep.equal({ thinkingBudget: 24576, includeThoughts: true });
  });

  it('asks for thought summaries unless the effort is none', () => {
    expect(mapReasoningEffort('none', 'gemini-2.5-flash')).to.deep.equal({ thinkingBudget: 0, includeThoughts: false });
    expect(mapReasoningEffort('minimal', 'gemini-2.5-flash')?.includeThoughts).to.equal(true);
  });

  it('reads the model name through any path prefix', () => {
    expect(mapReasoningEffort('low', 'models/gemini-2.5-pro')).to.deep.equal({ thinkingBudget: 1024, includeThoughts: true });
    expect(mapReasoningEffort('low', 'google/Gemini-3-Flash-Preview')).to.deep.equal({ thinkingLevel: 'low', includeThoughts: true });
  });

  it('sends no thinking config to models that cannot think or are not recognised', () => {
    for (const model of ['gemini-2.0-flash', 'gemini-1.5-pro', 'gemini-2.5-flash-image', 'gemini-2.5-flash-preview-tts', 'gemini-flash-latest', 'gemma-3-27b-it']) {
      expect(mapReasoningEffort('high', model), model).to.equal(undefined);
    }
  });
});
