// The `plugins:` entry that loads a stage-fit test plugin (a file beside this one) by path.
import { fileURLToPath } from 'node:url';

export function testPlugin(file: string, options?: Record<string, unknown>): { path: string; options?: Record<string, unknown> } {
  const path = fileURLToPath(new URL(file, import.meta.url));
  return options === undefined ? { path } : { path, options };
}
