// Recorded provider payloads (test/fixtures/recorded, from the real APIs) and hand-written ones.
import { readFileSync } from 'node:fs';

const ROOT = new URL('../fixtures/', import.meta.url);

export function fixtureText(path: string): string {
  return readFileSync(new URL(path, ROOT), 'utf8');
}

export function fixtureJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(fixtureText(path)) as T;
}
