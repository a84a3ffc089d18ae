// The audit plugin's `store` option: which Store the gateway opens. SQLite in the data
// directory by default; PostgreSQL with a URL from the config or, unset, from DATABASE_URL, so
// the credential can stay out of the file.
import { join } from 'node:path';
import type { StoreSpec } from './store.js';

export interface StoreOptions {
  type: 'sqlite' | 'postgres';
  /** postgres://…; null: DATABASE_URL. */
  url: string | null;
  /** Where the tables live (created when missing); several gateways share one by naming it. */
  schema: string;
}

const DB_FILE = 'sluice.db';
/** A schema name that needs no escaping: it is written into search_path and DDL. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export const storeOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    type: { enum: ['sqlite', 'postgres'], default: 'sqlite' },
    url: { type: ['string', 'null'], minLength: 1, default: null },
    schema: { type: 'string', pattern: SCHEMA_NAME.source, default: 'public' },
  },
} as const;

export function storeSpecOf(options: StoreOptions, bodyIndex: boolean, dataDir: string, env: Readonly<Record<string, string | undefined>>): StoreSpec {
  if (options.type === 'sqlite') return { kind: 'sqlite', file: join(dataDir, DB_FILE), bodyIndex };
  const url = options.url ?? env['DATABASE_URL'];
  if (url === undefined || url === '') throw new Error('store.type is postgres but neither store.url nor DATABASE_URL is set');
  return { kind: 'postgres', url, schema: options.schema };
}
