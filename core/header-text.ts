// Text from outside that the gateway echoes in a response header (a client's model id in
// x-gateway-model). Node throws ERR_INVALID_CHAR on a header value holding a control character
// or anything above U+00FF, and by then the provider has answered and billed the call: such a
// model id is refused where it comes in (core/body.ts), and the response path escapes whatever
// still slips through (an operator's or a plugin's value) instead of throwing.

/** Anything but printable latin1: C0 and C1 controls, DEL, and every code unit above U+00FF. */
const UNPRINTABLE = /[^\x20-\x7e\xa0-\xff]/;
const EACH_UNPRINTABLE = /[^\x20-\x7e\xa0-\xff]/g;

export function isPrintableLatin1(text: string): boolean {
  return !UNPRINTABLE.test(text);
}

/** The text as a header can carry it: each unprintable UTF-16 code unit as `\uXXXX`. */
export function headerSafe(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(EACH_UNPRINTABLE, escapeCodeUnit) : text;
}

function escapeCodeUnit(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
