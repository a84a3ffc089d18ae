// The upstream body is the client's body with the model name (and a few gateway-owned fields)
// replaced. When only the model changes (and a stream's usage option is the client's or can
// be added), the client's own bytes are reused with the model's value swapped: serializing
// the whole body again, and encoding that string for the socket, costs microseconds a request
// against a budget of 1.4 times a bare forwarder's CPU. Otherwise, rather than copying the
// body, the fields are swapped in for the one JSON.stringify and swapped back, so the
// client's parsed body stays as received (failover and the audit log read it afterwards). A
// field that was absent is restored as undefined, which JSON.stringify omits.
import { isUtf8 } from 'node:buffer';
import { MemberKey, memberValueAt } from '../../core/json-member.js';

export function serializeWith(body: Record<string, unknown>, fields: Record<string, unknown>): string {
  const saved: unknown[] = [];
  const keys = Object.keys(fields);
  for (const k of keys) {
    saved.push(body[k]);
    body[k] = fields[k];
  }
  try {
    return JSON.stringify(body);
  } finally {
    for (let i = 0; i < keys.length; i++) body[keys[i]!] = saved[i];
  }
}

const USAGE_ON = Object.freeze({ include_usage: true });

/** `stream_options` that makes the provider report usage on a stream, keeping the client's other options. */
export function streamOptionsWithUsage(current: unknown): unknown {
  if (current === undefined || current === null) return USAGE_ON;
  const options = current as Record<string, unknown>;
  return options['include_usage'] === true ? options : { ...options, include_usage: true };
}

const MODEL = new MemberKey('model');
const STREAM_OPTIONS = new MemberKey('stream_options');
const INCLUDE_USAGE = new MemberKey('include_usage');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const UNICODE_ESCAPE = Buffer.from('\\u');
const ADDED_USAGE_OPTION = Buffer.from(',"stream_options":{"include_usage":true}');

/**
 * What the upstream body does about `stream_options`: nothing (`leave`), rely on the client's
 * own `include_usage: true` (`client`), or add the member asking for usage (`add`).
 */
export type UsageOption = 'leave' | 'client' | 'add';

/**
 * The client's body bytes with the value of its `model` replaced by `model` (and the
 * `stream_options` asking for usage added after it): the same JSON as serializeWith would
 * write, without serializing the whole body again. Null when the bytes cannot be shown to be
 * that, and the caller serializes.
 *
 * With no `\u` escape in the bytes, every member named `model`, at any depth, is spelled
 * `"model"` followed by a colon; a key that merely ends in `\"model` is spelled so too. So
 * when exactly one such place exists and the body has a top-level string `model`, that place
 * is it. The same holds for `stream_options` and `include_usage`: relying on the client's
 * option takes one of each, so that no duplicate key can mean something else to a provider
 * that reads the first of two. (The bytes are valid JSON: they parsed as the body.) Bytes
 * that are not valid UTF-8 are left to serializeWith, which sends U+FFFD in their place as
 * the parsed body has it.
 */
export function splicedBody(raw: Buffer, clientModel: unknown, model: string, usage: UsageOption): Buffer | null {
  if (typeof clientModel !== 'string' || !isPlainAscii(clientModel) || !isPlainAscii(model)) return null;
  const backslash = raw.indexOf(BACKSLASH);
  if ((backslash !== -1 && raw.indexOf(UNICODE_ESCAPE, backslash) !== -1) || !isUtf8(raw)) return null;
  if (usage === 'client' && (soleMemberValue(raw, STREAM_OPTIONS) === -1 || soleMemberValue(raw, INCLUDE_USAGE) === -1)) return null;
  const start = soleMemberValue(raw, MODEL);
  if (start === -1 || !holdsString(raw, start, clientModel)) return null;
  const added = usage === 'add' ? ADDED_USAGE_OPTION : null;
  const out = Buffer.allocUnsafe(raw.length - clientModel.length + model.length + (added === null ? 0 : added.length));
  let at = raw.copy(out, 0, 0, start + 1);
  for (let i = 0; i < model.length; i++) out[at++] = model.charCodeAt(i);
  out[at++] = QUOTE;
  if (added !== null) at += added.copy(out, at);
  raw.copy(out, at, start + clientModel.length + 2);
  return out;
}

/** Where the value of the only member named `key` (at any depth) starts; -1 when there is none or more than one. */
function soleMemberValue(raw: Buffer, key: MemberKey): number {
  let found = -1;
  for (let at = key.lastIn(raw, raw.length); at !== -1; at = key.lastIn(raw, at - 1)) {
    const value = memberValueAt(raw, at, key);
    if (value === -1) continue;
    if (found !== -1) return -1;
    found = value;
  }
  return found;
}

/**
 * Whether JSON writes `s` as its own characters, one byte each: printable ASCII without quote
 * or backslash (model names are), so it can be compared and written byte by byte.
 */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) return false;
  }
  return true;
}

/** Whether the bytes at `start` are the JSON string of the plain ASCII `s`. */
function holdsString(raw: Buffer, start: number, s: string): boolean {
  if (raw[start] !== QUOTE || raw[start + s.length + 1] !== QUOTE) return false;
  for (let i = 0; i < s.length; i++) if (raw[start + 1 + i] !== s.charCodeAt(i)) return false;
  return true;
}
