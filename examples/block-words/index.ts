// An operator's plugin, written the way one would be outside this repository: it rejects chat
// requests whose messages contain a blocked word, before any provider sees them, and marks
// the requests it checked and let through with `x-blocked-words-checked: true`.
import { ORDER, badRequest, definePlugin } from 'sluice/plugin';
import type { ChatMessage, RequestContext } from 'sluice/plugin';

export interface BlockWordsOptions {
  /** Words (or phrases) to refuse, matched whole and case-insensitively. */
  words: string[];
  /** What the client is told; by default it does not name the word. */
  message?: string;
}

const NAME = 'block-words';
export const CHECKED_HEADER = 'x-blocked-words-checked';
const DEFAULT_MESSAGE = 'the request contains a blocked word';
// After the validate plugin (the body has the documented shape) and before routing (a blocked
// request is refused the same way whichever model it names).
const AFTER_VALIDATION = ORDER.VALIDATE + 1;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['words'],
  properties: {
    words: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    message: { type: 'string', minLength: 1 },
  },
} as const;

/** One regular expression for all words: whole words only, any letter case, any script. */
export function blockedWordsPattern(words: readonly string[]): RegExp {
  const alternatives = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, 'iu');
}

/** The `param` of the first text that matches (`messages[2].content[0].text`), or null. */
export function findBlocked(messages: readonly ChatMessage[], pattern: RegExp): string | null {
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]!.content;
    if (typeof content === 'string') {
      if (pattern.test(content)) return `messages[${i}].content`;
    } else if (Array.isArray(content)) {
      for (let j = 0; j < content.length; j++) {
        const part = content[j]!;
        if (part.type === 'text' && pattern.test(part.text)) return `messages[${i}].content[${j}].text`;
      }
    }
  }
  return null;
}

export default definePlugin<BlockWordsOptions>({
  name: NAME,
  schema,
  setup(gw, options) {
    // Built once at boot: the request path only runs the expression.
    const pattern = blockedWordsPattern(options.words);
    const message = options.message ?? DEFAULT_MESSAGE;

    gw.stages.route.tap({ name: NAME, stage: AFTER_VALIDATION }, (ctx: RequestContext) => {
      if (ctx.route.operation !== 'chat') return;
      const messages = ctx.body?.['messages'];
      if (!Array.isArray(messages)) return;
      const param = findBlocked(messages as ChatMessage[], pattern);
      if (param !== null) throw badRequest(message, param, 'blocked_word');
      ctx.res.setHeader(CHECKED_HEADER, 'true');
    });
  },
});
