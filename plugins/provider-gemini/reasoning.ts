// OpenAI `reasoning_effort` as Gemini's thinkingConfig.
//
// | effort  | 2.5 thinkingBudget            | 3.x thinkingLevel wanted |
// |---------|-------------------------------|--------------------------|
// | none    | 0 (2.5 Pro: 128, its minimum) | minimal                  |
// | minimal | 512                           | minimal                  |
// | low     | 1024                          | low                      |
// | medium  | 8192                          | medium                   |
// | high    | 24576                         | high                     |
// | xhigh   | 32768                         | high                     |
// | max     | 32768                         | high                     |
//
// low/medium/high are the 1K/8K/24K budgets Google's own OpenAI-compatible endpoint uses, so a
// client sees the same behaviour through Sluice as there. Budgets are clamped into the model's
// range (Flash and Flash-Lite top out at 24576, Flash-Lite starts at 512, Pro at 128). A wanted
// level the model lacks is downgraded to the nearest lower level it has, or its lowest level
// when none is lower (3 Pro has only low/high: minimal -> low, medium -> low). Gemini 3 cannot
// turn thinking off, so `none` asks for the least thinking the model allows.
import type { ReasoningEffort } from '../../core/types/chat.js';
import { thinkingCapability, type BudgetThinking, type LevelThinking } from './thinking-capability.js';
import type { GeminiThinkingConfig, GeminiThinkingLevel } from './types.js';

const BUDGET: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 32768,
};

const LEVEL: Record<ReasoningEffort, GeminiThinkingLevel> = {
  none: 'minimal',
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

const LEVEL_ORDER: readonly GeminiThinkingLevel[] = ['minimal', 'low', 'medium', 'high'];

export function budgetFor(effort: ReasoningEffort, model: BudgetThinking): number {
  const wanted = BUDGET[effort];
  if (wanted === 0 && model.canDisable) return 0;
  return Math.min(model.max, Math.max(model.min, wanted));
}

export function levelFor(effort: ReasoningEffort, model: LevelThinking): GeminiThinkingLevel {
  const wantedRank = LEVEL_ORDER.indexOf(LEVEL[effort]);
  const atOrBelow = model.levels.filter((level) => LEVEL_ORDER.indexOf(level) <= wantedRank);
  return atOrBelow[atOrBelow.length - 1] ?? model.levels[0] ?? 'high';
}

/**
 * The thinkingConfig for `effort` on `model`, or undefined when the model takes none (or is not
 * recognised). Thought summaries are asked for whenever thinking is asked for, so the client
 * gets them as `reasoning_content`; `none` asks for none.
 */
export function mapReasoningEffort(effort: ReasoningEffort, model: string): GeminiThinkingConfig | undefined {
  const capability = thinkingCapability(model);
  if (capability === undefined) return undefined;
  const includeThoughts = effort !== 'none';
  if (capability.kind === 'budget') return { thinkingBudget: budgetFor(effort, capability), includeThoughts };
  return { thinkingLevel: levelFor(effort, capability), includeThoughts };
}
