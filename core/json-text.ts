// JSON text of an answer, however deeply its value nests. JSON.stringify recurses on the native
// stack and throws a RangeError past a few thousand levels; bodies that deep are refused on the
// way in (core/json-depth.ts), but a stored call record from before that rule, or a deep answer
// from a provider, must still be answered rather than fail as a 500. So a RangeError falls back
// to a writer that keeps its own stack: slower, and taken only when the native one gave up.

export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return deepJsonText(value);
  }
}

/** An object or array being written: its members, and how many of them are done. */
interface Open {
  readonly value: object;
  readonly keys: readonly string[] | null;
  next: number;
  wrote: boolean;
}

/**
 * What JSON.stringify writes, for the values answers carry (plain objects and arrays, primitives,
 * objects with toJSON), with an explicit stack. A cycle throws a TypeError as JSON.stringify does.
 */
export function deepJsonText(root: unknown): string {
  const out: string[] = [];
  const stack: Open[] = [];
  const onPath = new Set<object>();
  const write = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) {
      out.push(JSON.stringify(value) ?? 'null');
      return;
    }
    if (onPath.has(value)) throw new TypeError('Converting circular structure to JSON');
    onPath.add(value);
    const keys = Array.isArray(value) ? null : Object.keys(value);
    stack.push({ value, keys, next: 0, wrote: false });
    out.push(keys === null ? '[' : '{');
  };
  write(toJsonValue(root, ''));
  while (stack.length > 0) {
    const open = stack[stack.length - 1]!;
    if (open.keys === null) {
      const items = open.value as unknown[];
      if (open.next < items.length) {
        if (open.next > 0) out.push(',');
        const i = open.next++;
        const item = toJsonValue(items[i], String(i));
        write(isOmitted(item) ? null : item);
        continue;
      }
    } else {
      let member: unknown;
      while (open.next < open.keys.length) {
        const key = open.keys[open.next++]!;
        member = toJsonValue((open.value as Record<string, unknown>)[key], key);
        if (isOmitted(member)) continue;
        out.push(`${open.wrote ? ',' : ''}${JSON.stringify(key)}:`);
        open.wrote = true;
        break;
      }
      if (!isOmitted(member)) {
        write(member);
        continue;
      }
    }
    out.push(open.keys === null ? ']' : '}');
    onPath.delete(open.value);
    stack.pop();
  }
  return out.join('');
}

function toJsonValue(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
