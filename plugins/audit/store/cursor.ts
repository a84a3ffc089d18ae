// Keyset pagination: a cursor is the position (ts, seq) of the last entry of a page, and the
// next page starts strictly after it, newest first, so pages neither repeat nor skip entries
// that arrive meanwhile. Clients see it as opaque text; `seq` is the store's insertion order.
import { badRequest } from '../../../core/errors.js';

export interface CursorPosition {
  ts: number;
  seq: number;
}

const SHAPE = /^(\d{1,16})\.(\d{1,19})$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.ts}.${position.seq}`, 'utf8').toString('base64url');
}

/** Throws the contract's 400 (param `cursor`) for anything encodeCursor did not make. */
export function decodeCursor(cursor: string): CursorPosition {
  const match = SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const ts = Number(match?.[1]);
  const seq = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(ts) || !Number.isSafeInteger(seq)) {
    throw badRequest('cursor is not one this gateway issued: pass next_cursor from the previous page unchanged', 'cursor', 'invalid_cursor');
  }
  return { ts, seq };
}
