import { badRequest } from '../../core/errors.js';

/** A field the translation cannot do without, as the 400 that names it when it is not a string. */
export function requiredString(value: unknown, param: string): string {
  if (typeof value !== 'string') throw badRequest(`'${param}' must be a string`, param);
  return value;
}
