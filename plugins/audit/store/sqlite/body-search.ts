// `q` (a literal substring of a body, ASCII case-insensitive) over the word index of the bodies.
// The index (FTS5, unicode61: words of letters and digits, case folded) only proposes
// candidates and LIKE confirms them, so the answer is exact; each word of q narrows as far as
// what q says of it: a word with a separator on both sides is a whole word of the body, one that
// ends q may be a word's start (a prefix query), and one that q cuts at its start (or a q of one
// word) may sit anywhere inside a word, so its candidates are the indexed words that contain it
// (from the index's vocabulary, read only when q has no other word to go by), unless there are
// too many to help. Word indexing costs about
// a tenth of what trigram indexing did per entry here, and most of a gateway's work is writing.
import type { Statement } from 'better-sqlite3';

// ASCII letters and digits: what unicode61 takes as a word's characters there, anything else in
// ASCII separating words. Beyond ASCII its classes are its own; such a q is not narrowed.
const WORD = /[A-Za-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;
// More vocabulary words than this containing a fragment: it narrows too little to be worth an OR.
const MAX_ALTERNATIVES = 200;
/** Rows the vocabulary lookup (SELECT term … LIKE ? LIMIT this) returns at most: one more says "too many". */
export const MAX_WORDS = MAX_ALTERNATIVES + 1;

export type VocabularyLookup = Statement<[string], string>;

/** The FTS5 query narrowing q's candidates, '' when nothing narrows, null when nothing can match. */
export function candidateQuery(q: string, vocabulary: VocabularyLookup): string | null {
  if (NON_ASCII.test(q)) return '';
  const parts: string[] = [];
  const fragments: Array<{ word: string; wholeEnd: boolean }> = [];
  for (const m of q.matchAll(WORD)) {
    const word = m[0].toLowerCase();
    const wholeStart = m.index > 0;
    const wholeEnd = m.index + m[0].length < q.length;
    if (wholeStart && wholeEnd) parts.push(quoted(word));
    else if (wholeStart) parts.push(`${quoted(word)}*`);
    else fragments.push({ word, wholeEnd });
  }
  // The vocabulary is read term by term (seconds over millions of entries): only when nothing else narrows.
  if (parts.length > 0) return parts.join(' AND ');
  for (const { word, wholeEnd } of fragments) {
    const words = vocabulary.all(`%${escapeLike(word)}${wholeEnd ? '' : '%'}`);
    if (words.length === 0) return null;
    if (words.length <= MAX_ALTERNATIVES) parts.push(`(${words.map(quoted).join(' OR ')})`);
  }
  return parts.join(' AND ');
}

/** The LIKE pattern confirming q: a literal, with % and _ taken as themselves. */
export function likePattern(q: string): string {
  return `%${escapeLike(q)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

function quoted(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}
