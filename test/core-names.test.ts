// core/ is feature-blind (docs/architecture.md, "What the core may name"): outside its tests it
// names no provider and no feature, except the client API's own shapes, which say whose they are.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const CORE = fileURLToPath(new URL('../core', import.meta.url));
const NAMES = /openai|anthropic|gemini|vllm|audit|ollama/i;
/** The client API's shapes and operations: OpenAI's wire format is the product's own API. */
const NEUTRAL = new Map([
  ['types/chat.ts', '// OpenAI Chat Completions wire shapes'],
  ['types/responses.ts', '// OpenAI Responses API wire shapes'],
  ['api-routes.ts', '// The OpenAI-compatible model operations'],
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('core/ names no provider and no feature', () => {
  it('outside the lines that name the client API', () => {
    const found: string[] = [];
    for (const path of sources(CORE)) {
      const file = relative(CORE, path);
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const allowed = NEUTRAL.get(file);
          if (NAMES.test(line) && !(allowed !== undefined && line.startsWith(allowed))) found.push(`core/${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).to.deep.equal([]);
  });
});
