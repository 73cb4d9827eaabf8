/**
 * Free text → a safe FTS5 query, and the rows it matches.
 *
 * User input never reaches MATCH as typed. It is cut into words (letters and digits, as the
 * unicode61 tokenizer sees them); every word becomes a quoted FTS5 string, so AND/OR/NOT/NEAR,
 * quotes, stars, parentheses, colons and carets are plain text or dropped. All terms must match
 * (implicit AND). Search as you type: the last word matches as a prefix ("wash" finds
 * "washington"), earlier words as whole words, unless typed with a star ("wash* st"); words of one
 * character are always whole. Text in "double quotes" is an exact phrase.
 *
 * Why only the last word: FTS5 materializes a prefix term's whole doclist, and common words
 * ("block", "of", "st") appear in nearly every address — "1200 block of main" costs ~150 ms with
 * every word a prefix and ~18 ms like this, at 1M incidents.
 */
import type { Db } from '../store/database';
import type { Snapshot } from './snapshot';

const WORD = /([\p{L}\p{N}\p{M}]+)(\*?)/gu;
const MAX_TERMS = 16;

/** The FTS5 query for `text`, or null when it has no words. */
export function toFtsQuery(text: string): string | null {
  const terms: string[] = [];
  let lastBare = -1;
  const parts = text.normalize('NFC').split('"');
  parts.forEach((part, i) => {
    // Odd parts sit between quotes; an unclosed quote's tail is plain words.
    if (i % 2 === 1 && i < parts.length - 1) {
      const words = part.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
      if (words.length > 0) terms.push(`"${words.join(' ')}"`);
      return;
    }
    for (const [, word = '', star] of part.matchAll(WORD)) {
      terms.push(star && word.length >= 2 ? `"${word}"*` : `"${word}"`);
      lastBare = terms.length - 1;
    }
  });
  const last = terms[lastBare];
  if (last !== undefined && !last.endsWith('*') && last.length >= 4) terms[lastBare] = `${last}*`;
  return terms.length ? terms.slice(0, MAX_TERMS).join(' ') : null;
}

type Cached = { version: number; mask: Uint8Array; matches: number };

/** Text matches as a row mask over a snapshot, cached per query and snapshot version. */
export class TextIndex {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly db: Db,
    private readonly capacity = 8,
  ) {}

  /** mask[row] = 1 when the row's address or description matches `query` (from toFtsQuery). */
  match(snapshot: Snapshot, query: string): Uint8Array {
    const hit = this.cache.get(query);
    if (hit && hit.version === snapshot.version && hit.mask.length >= snapshot.size) {
      this.cache.delete(query);
      this.cache.set(query, hit);
      return hit.mask;
    }
    const mask = new Uint8Array(snapshot.size);
    // One string of comma-separated rowids (ascending: FTS5's order) parses far faster than a row
    // per match crosses from SQLite (270k matches: ~35 ms against ~60–300 ms).
    const list = this.db
      .prepare('SELECT group_concat(rowid) FROM incidents_fts WHERE incidents_fts MATCH ?')
      .pluck()
      .get(query) as string | null;
    let matches = 0;
    let hint = 0;
    let previous = -Infinity;
    const mark = (cdid: number) => {
      const row = snapshot.rowOf(cdid, cdid > previous ? hint : 0);
      previous = cdid;
      if (row < 0) return;
      if (row > hint && row < snapshot.sortedRows) hint = row;
      mask[row] = 1;
      matches++;
    };
    if (list) {
      let value = 0;
      let negative = false;
      for (let i = 0; i < list.length; i++) {
        const c = list.charCodeAt(i);
        if (c === 44) {
          mark(negative ? -value : value);
          value = 0;
          negative = false;
        } else if (c === 45) negative = true;
        else value = value * 10 + (c - 48);
      }
      mark(negative ? -value : value);
    }
    this.cache.set(query, { version: snapshot.version, mask, matches });
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    return mask;
  }

  clear(): void {
    this.cache.clear();
  }
}
