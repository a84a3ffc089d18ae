// Reading labels off a request: the key's labels first (the operator set them, so a client
// header cannot override them), then each configured header that is present.
import type { IncomingHttpHeaders } from 'node:http';
import type { TaggingRule } from './rules.js';

/** A label value is at most this long; anything longer is cut (headers are client input). */
export const MAX_VALUE_LENGTH = 256;
const MAX_VALUES = 32;

export function decodeValue(raw: string): string {
  let value = raw.trim();
  // Open WebUI percent-encodes user names and emails.
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not valid percent-encoding: keep the value as sent.
    }
  }
  return value.length > MAX_VALUE_LENGTH ? value.slice(0, MAX_VALUE_LENGTH) : value;
}

export function readLabels(
  rules: readonly TaggingRule[],
  headers: IncomingHttpHeaders,
  keyLabels: Readonly<Record<string, string>> | undefined,
  into: Record<string, string | string[]>,
): void {
  for (const rule of rules) {
    if (keyLabels !== undefined && Object.hasOwn(keyLabels, rule.label)) continue;
    const raw = headers[rule.header];
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw.join(rule.delimiter ?? ',') : raw;
    if (rule.delimiter === null) {
      const value = decodeValue(text);
      if (value !== '') into[rule.label] = value;
      continue;
    }
    const values: string[] = [];
    for (const part of text.split(rule.delimiter)) {
      const value = decodeValue(part);
      if (value !== '' && !values.includes(value)) values.push(value);
      if (values.length === MAX_VALUES) break;
    }
    if (values.length > 0) into[rule.label] = values;
  }
  if (keyLabels !== undefined) for (const name in keyLabels) into[name] = keyLabels[name]!;
}
