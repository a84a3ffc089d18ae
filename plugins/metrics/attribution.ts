// Who a request is attributed to, as metric labels: only what the operator opted into (the
// key's id or name, chosen request labels), each capped in distinct values. Never a secret:
// a key's secret is not on the context at all, only its id and name.
import type { RequestContext } from '../../core/context.js';
import { BoundedValues } from './bounded-values.js';
import type { MetricsOptions } from './schema.js';

interface LabelSource {
  /** The metric label's name. */
  readonly name: string;
  read(ctx: RequestContext): string;
  readonly values: BoundedValues;
}

export class Attribution {
  readonly #sources: LabelSource[];
  /** The metric label names, in order. */
  readonly names: readonly string[];

  constructor(options: Pick<MetricsOptions, 'key_label' | 'labels' | 'max_label_values'>) {
    const sources: LabelSource[] = [];
    const cap = options.max_label_values;
    if (options.key_label !== 'none') {
      const field = options.key_label;
      sources.push({ name: 'key', read: (ctx) => ctx.principal?.[field] ?? '', values: new BoundedValues(cap) });
    }
    for (const label of options.labels) {
      sources.push({ name: `label_${label.replace(/[^A-Za-z0-9_]/g, '_')}`, read: (ctx) => labelValue(ctx.labels[label]), values: new BoundedValues(cap) });
    }
    this.#sources = sources;
    this.names = sources.map((s) => s.name);
  }

  /** The request's attribution label values, in the order of `names`. */
  values(ctx: RequestContext): readonly string[] {
    return this.#sources.length === 0 ? NONE : this.#sources.map((source) => source.values.admit(source.read(ctx)));
  }

  /** The labels of `values()`, by name. */
  labels(values: readonly string[]): Record<string, string> {
    return Object.fromEntries(this.names.map((name, i) => [name, values[i]!]));
  }
}

const NONE: readonly string[] = [];

function labelValue(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : value.join(',');
}
