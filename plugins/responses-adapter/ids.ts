// Ids of a translated response. Chat providers give none that fit (their completion ids are
// not unique everywhere), so each response gets a random token; its items carry the same
// token and their output index, which keeps them unique and ties them to their response in
// logs.
import { randomBytes } from 'node:crypto';

export type ItemPrefix = 'msg' | 'fc' | 'rs';

export function newResponseToken(): string {
  return randomBytes(24).toString('hex');
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
