// Test-only: reads test/fixtures/gemini-native and splits its SSE bodies into events.
import { readFileSync } from 'node:fs';
import type { SseEvent, StreamSink } from '../../core/stream/translator.js';
import type { Usage } from '../../core/types/usage.js';

const DIR = new URL('../../test/fixtures/gemini-native/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, DIR), 'utf8');
}

/** A JSON fixture; the type is the caller's claim about its shape. */
export function fixtureJson<T>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** SSE events of a body: split on blank lines, `data:` lines joined with "\n". */
export function sseEvents(body: string): SseEvent[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
      return { event, data };
    });
}

/** A StreamSink that records what it is given. */
export class RecordingSink<T> implements StreamSink<T> {
  readonly emitted: T[] = [];
  readonly usages: Usage[] = [];

  emit(value: T): void {
    this.emitted.push(value);
  }

  usage(usage: Usage): void {
    this.usages.push(usage);
  }
}
