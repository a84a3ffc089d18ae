// An operator's price (the admin API's PUT body) is checked against the catalog's own schema, so
// a price the API accepts is one the catalog could hold, and a typo such as `input_per_mtk` is a
// 400 naming the field instead of a price that silently drops a rate.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { REPO_ROOT } from '../../core/config.js';
import { badRequest } from '../../core/errors.js';
import type { Pricing } from '../../core/types/pricing.js';
import { planFor } from './plan.js';

const SCHEMA_ID = 'https://sluice.invalid/config/catalog.schema.json';

export type PricingCheck = (value: Record<string, unknown>) => Pricing;

/**
 * Reads the catalog schema at boot; compiles it at the first price set (most gateways never set
 * one, and the compiled validator with its Ajv instance holds about 0.4 MB).
 */
export function pricingCheck(): PricingCheck {
  const schema = JSON.parse(readFileSync(resolve(REPO_ROOT, 'config/catalog.schema.json'), 'utf8')) as object;
  let compiled: ValidateFunction | null = null;
  const validator = (): ValidateFunction => {
    if (compiled !== null) return compiled;
    const found = new Ajv({ allErrors: true }).addSchema(schema).getSchema(`${SCHEMA_ID}#/definitions/pricing`);
    if (found === undefined) throw new Error('config/catalog.schema.json has no pricing definition');
    return (compiled = found);
  };
  return (value) => {
    const validate = validator();
    if (!validate(value)) {
      const error = mostUseful(validate.errors ?? []);
      const param = error === undefined ? null : paramOf(error);
      throw badRequest(`invalid pricing: ${param ?? 'the price'} ${error === undefined ? 'is not valid' : messageOf(error)}`, param, 'invalid_pricing');
    }
    const pricing = value as Pricing;
    const plan = planFor(pricing);
    if (typeof plan === 'string') throw badRequest(`invalid pricing: ${plan}`, null, 'invalid_pricing');
    return pricing;
  };
}

/**
 * The error to report: an unknown field first (a typo explains the rest: `input_per_mtk` also
 * leaves the price without an input rate), else any but the branches of the one `anyOf`.
 */
function mostUseful(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.find((e) => e.keyword === 'additionalProperties') ?? errors.find((e) => !e.schemaPath.includes('/anyOf/')) ?? errors[0];
}

function messageOf(error: ErrorObject): string {
  return error.keyword === 'anyOf' ? 'is missing: a price needs input_per_mtok or a per-unit rate' : (error.message ?? 'is not valid');
}

/** `/tiers/0/input_per_mtok` as `tiers[0].input_per_mtok`; an unknown key names itself. */
function paramOf(error: ErrorObject): string | null {
  // The only anyOf of the pricing shape: some rate that makes a price usable.
  if (error.keyword === 'anyOf' && error.instancePath === '') return 'input_per_mtok';
  const parts = error.instancePath.split('/').slice(1);
  const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
  if (typeof extra === 'string') parts.push(extra);
  const path = parts.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '');
  return path === '' ? null : path;
}
