// The two parts of undici the gateway uses: its connection Pool and its error classes. undici's
// index loads everything else too (fetch, WebSocket, caches, mocks: about 1.5 MB of source kept in
// the heap, and its cookie module makes Node load its own bundled undici for `Headers`), which the
// idle process would hold for nothing. These are the very objects the index exports
// (undici-parts.test.ts holds it to that); a Pool made here has `dispatch`, `close` and `destroy`,
// not the `request` family the index adds to every dispatcher.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export type Pool = Undici.Pool;
export const errors = require('undici/lib/core/errors.js') as typeof Undici.errors;
