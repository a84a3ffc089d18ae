// Whether two values are the same JSON data: what JSON.stringify of either would write, member
// order aside. Strict where JSON is loose (an undefined member, a toJSON, a class instance or a
// non-finite number answer false): a false only costs the audit a copy it could have avoided.
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    const type = typeof a;
    return type === 'object' || type === 'string' || type === 'boolean' || (type === 'number' && Number.isFinite(a));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (hasToJson(a) || hasToJson(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Own enumerable string keys: the members JSON.stringify writes.
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) {
    const value = x[key];
    if (value === undefined || !Object.prototype.propertyIsEnumerable.call(y, key) || !jsonEqual(value, y[key])) return false;
  }
  return true;
}

function hasToJson(o: object): boolean {
  return typeof (o as { toJSON?: unknown }).toJSON === 'function';
}

function isPlainObject(o: object): boolean {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}
