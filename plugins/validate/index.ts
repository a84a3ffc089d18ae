// Validates request bodies before routing: a 400 invalid_request_error whose `param` names
// the offending field (`messages[0].role`), instead of a provider's late, differently shaped
// rejection. Validators are compiled once at boot.
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { jsonPointerToKey } from '../../core/config-error.js';
import type { RequestContext } from '../../core/context.js';
import { badRequest } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import { chatRequestSchema, compactRequestSchema, embeddingsRequestSchema, responsesRequestSchema } from './schemas.js';

const NAME = 'validate';

export function compileValidators(): ReadonlyMap<string, ValidateFunction> {
  const ajv = new Ajv({ allErrors: false, strict: false });
  return new Map([
    ['chat', ajv.compile(chatRequestSchema)],
    ['embeddings', ajv.compile(embeddingsRequestSchema)],
    ['responses', ajv.compile(responsesRequestSchema)],
    ['compact', ajv.compile(compactRequestSchema)],
  ]);
}

/** The most specific error of a failed validation, as the contract's 400. */
export function toBadRequest(errors: ErrorObject[]): Error {
  // With anyOf, ajv reports each branch's failure and then the anyOf itself; the deepest
  // path names the field most precisely.
  let best = errors[0]!;
  for (const e of errors) {
    const longer = e.instancePath.length - best.instancePath.length;
    if (longer > 0 || (longer === 0 && e.keyword === 'anyOf')) best = e;
  }
  let param = jsonPointerToKey(best.instancePath);
  let message = best.message ?? 'is invalid';
  if (best.keyword === 'required') {
    const missing = String(best.params['missingProperty']);
    param = param === '' ? missing : `${param}.${missing}`;
    message = 'is required';
  } else if (best.keyword === 'enum') {
    message = `must be one of ${(best.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (best.keyword === 'anyOf') {
    message = 'has an invalid type or shape';
  }
  return badRequest(`${param === '' ? 'request body' : `'${param}'`} ${message}`, param === '' ? null : param);
}

export default definePlugin({
  name: NAME,
  setup(gw) {
    const validators = compileValidators();
    gw.stages.route.tap({ name: NAME, stage: ORDER.VALIDATE }, (ctx: RequestContext) => {
      const validate = validators.get(ctx.route.operation!);
      if (validate !== undefined && !validate(ctx.body)) throw toBadRequest(validate.errors!);
    });
  },
});
