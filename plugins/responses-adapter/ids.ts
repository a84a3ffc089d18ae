// Ids of a translated response. Chat providers give none that fit (their completion ids are
// not unique everywhere), so each response gets a random token; its items carry the same
// token and their output index, which keeps them unique and ties them to their response in
// logs.
import { randomHex } from '../../core/random-pool.js';

export type ItemPrefix = 'msg' | 'fc' | 'rs';

export function newResponseToken(): string {
  return randomHex(24);
}

export function responseId(token: string): string {
  return `resp_${token}`;
}

export function itemId(prefix: ItemPrefix, token: string, outputIndex: number): string {
  return `${prefix}_${token}_${outputIndex}`;
}

/** Unix seconds, the unit of `created_at` and `completed_at`. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
