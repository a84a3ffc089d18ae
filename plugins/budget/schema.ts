// Options of the budget plugin (docs/budgets.md).
import type { KeyBudget } from '../../core/context.js';
import { sharedProperties } from '../limit-state/options.js';
import type { EstimateOptions, StoreOptions } from '../limit-state/options.js';

export interface BudgetOptions extends StoreOptions, EstimateOptions {
  /** A budget that every value of a label gets (e.g. each `user` $20 a month). */
  labels: Record<string, KeyBudget>;
  /** A budgeted call to a model without a known price: `refuse` it, or `allow` it with nothing reserved. */
  unknown_price: 'refuse' | 'allow';
}

export const budgetSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...sharedProperties('closed'),
    labels: {
      type: 'object',
      default: {},
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['amount_usd', 'period'],
        properties: { amount_usd: { type: 'number', minimum: 0 }, period: { enum: ['daily', 'weekly', 'monthly', 'total'] } },
      },
    },
    unknown_price: { enum: ['refuse', 'allow'], default: 'refuse' },
  },
};
