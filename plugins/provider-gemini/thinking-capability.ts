// Which thinking control a Gemini model takes. The two controls are exclusive (both in one
// request is a 400), and sending either to a model that cannot think is a 400 too, so an
// unrecognised model gets no thinking control at all rather than a guess.
import type { GeminiThinkingLevel } from './types.js';

/** Gemini 2.5: a token budget within [min, max]; 0 turns thinking off where allowed. */
export interface BudgetThinking { kind: 'budget'; min: number; max: number; canDisable: boolean }

/** Gemini 3 and later: named levels, a per-model subset, ordered from least to most thinking. */
export interface LevelThinking { kind: 'level'; levels: readonly GeminiThinkingLevel[] }

export type ThinkingCapability = BudgetThinking | LevelThinking;

// Budget ranges from Google's thinking guide (2.5 Pro cannot turn thinking off).
const PRO_25: BudgetThinking = { kind: 'budget', min: 128, max: 32768, canDisable: false };
const FLASH_25: BudgetThinking = { kind: 'budget', min: 1, max: 24576, canDisable: true };
const FLASH_LITE_25: BudgetThinking = { kind: 'budget', min: 512, max: 24576, canDisable: true };

// Level sets per the thinking guide: 3 Pro takes low/high, 3.1 Pro added medium, Flash takes all four.
const PRO_30: LevelThinking = { kind: 'level', levels: ['low', 'high'] };
const PRO_31: LevelThinking = { kind: 'level', levels: ['low', 'medium', 'high'] };
const FLASH_3: LevelThinking = { kind: 'level', levels: ['minimal', 'low', 'medium', 'high'] };
// Every 3.x model accepts these two, so an unfamiliar 3.x variant gets only them.
const ANY_3: LevelThinking = { kind: 'level', levels: ['low', 'high'] };

/** The model's own name: "models/gemini-2.5-pro" and "google/gemini-2.5-pro" both give "gemini-2.5-pro". */
function baseName(model: string): string {
  return (model.split('/').pop() ?? model).toLowerCase();
}

// Image, speech and live variants share the family prefix but do not take a thinking config.
const NON_THINKING_VARIANT = /-(image|tts|live|native-audio|embedding)/;

function budgetFamily(name: string): BudgetThinking | undefined {
  if (name.includes('-pro')) return PRO_25;
  if (name.includes('-flash-lite')) return FLASH_LITE_25;
  if (name.includes('-flash')) return FLASH_25;
  return undefined;
}

function levelFamily(name: string, major: number, minor: number): LevelThinking {
  if (name.includes('-flash')) return FLASH_3;
  if (name.includes('-pro')) return major === 3 && minor === 0 ? PRO_30 : PRO_31;
  return ANY_3;
}

/** The thinking control of `model`, or undefined when it has none or is not recognised. */
export function thinkingCapability(model: string): ThinkingCapability | undefined {
  const name = baseName(model);
  if (NON_THINKING_VARIANT.test(name)) return undefined;
  const version = /^gemini-(\d+)(?:\.(\d+))?-/.exec(name);
  if (version === null) return undefined;
  const major = Number(version[1]);
  const minor = Number(version[2] ?? '0');
  if (major >= 3) return levelFamily(name, major, minor);
  if (major === 2 && minor === 5) return budgetFamily(name);
  return undefined;
}
