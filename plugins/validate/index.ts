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

let compiled: ReadonlyMap<string, ValidateFunction> | null = null;

/**
 * Compiled once per process (ajv takes ~100 ms for these schemas): the validators are pure, so
 * gateways started in one process (tests, embedding) share them.
 */
export function compileValidators(): ReadonlyMap<string, ValidateFunction> {
  if (compiled !== null) return compiled;
  const ajv = new Ajv({ allErrors: false, strict: false });
  compiled = new Map([
    ['chat', ajv.compile(chatRequestSchema)],
    ['embeddings', ajv.compile(embeddingsRequestSchema)],
    ['responses', ajv.compile(responsesRequestSchema)],
    ['compact', ajv.compile(compactRequestSchema)],
  ]);
  return compiled;
}

/** The most specific error of a failed validation, as the contract's 400. */
export function toBadRequest(errors: ErrorObject[]): Error {
  // With anyOf, ajv reports each branch's failure and then the anyOf itself; the deepest
  // field (a missing property counts as one level deeper) names the problem most precisely,
  // and on a tie the anyOf's summary beats one branch's complaint.
  let best = errors[0]!;
  let bestParam = paramOf(best);
  for (const e of errors) {
    const param = paramOf(e);
    const longer = param.length - bestParam.length;
    if (longer > 0 || (longer === 0 && e.keyword === 'anyOf')) {
      best = e;
      bestParam = param;
    }
  }
  const param = bestParam;
  let message = best.message ?? 'is invalid';
  if (best.keyword === 'required') {
    message = 'is required';
  } else if (best.keyword === 'enum') {
    message = `must be one of ${(best.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (best.keyword === 'const') {
    message = `must be ${JSON.stringify(best.params['allowedValue'])}`;
  } else if (best.keyword === 'anyOf') {
    message = 'has an invalid type or shape';
  }
  return badRequest(`${param === '' ? 'request body' : `'${param}'`} ${message}`, param === '' ? null : param);
}

/** The field an error is about, as the client wrote it (`messages[0].role`). */
function paramOf(e: ErrorObject): string {
  const path = jsonPointerToKey(e.instancePath);
  if (e.keyword !== 'required') return path;
  const missing = String(e.params['missingProperty']);
  return path === '' ? missing : `${path}.${missing}`;
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
