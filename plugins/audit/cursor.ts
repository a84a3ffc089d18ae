// Keyset pagination: a cursor is the position (ts, n) of the last entry of a page (its row
// number, entry-sequence.ts), and the next page starts strictly after it, newest first. Unlike
// an offset it neither repeats nor skips entries when new ones arrive between pages. Clients
// see it as opaque text.
import { badRequest } from '../../core/errors.js';
import type { SeqPosition } from './entry-sequence.js';

export type CursorPosition = SeqPosition;

const SHAPE = /^(\d{1,16})\.(\d{1,16})$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.ts}.${position.n}`, 'utf8').toString('base64url');
}

/** Throws the contract's 400 (param `cursor`) for anything encodeCursor did not make. */
export function decodeCursor(cursor: string): CursorPosition {
  const match = SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const ts = Number(match?.[1]);
  const n = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(ts) || !Number.isSafeInteger(n)) {
    throw badRequest('cursor is not one this gateway issued: pass next_cursor from the previous page unchanged', 'cursor', 'invalid_cursor');
  }
  return { ts, n };
}
