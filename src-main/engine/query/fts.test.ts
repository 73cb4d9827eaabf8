import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../../bench/lib/seedData';
import { toFtsQuery } from './fts';

describe('toFtsQuery', () => {
  it('quotes every word; the last one (being typed) matches as a prefix', () => {
    expect(toFtsQuery('main')).toBe('"main"*');
    expect(toFtsQuery('  Oak   st ')).toBe('"Oak" "st"*');
    expect(toFtsQuery('n main')).toBe('"n" "main"*');
    expect(toFtsQuery('1200 block of main')).toBe('"1200" "block" "of" "main"*');
    expect(toFtsQuery('main n')).toBe('"main" "n"'); // one character: a whole word
  });

  it('honours a star typed after a word of two or more characters', () => {
    expect(toFtsQuery('wash* st')).toBe('"wash"* "st"*');
    expect(toFtsQuery('w* st')).toBe('"w" "st"*');
  });

  it('keeps a "quoted phrase" together, exact', () => {
    expect(toFtsQuery('"block of n" oak')).toBe('"block of n" "oak"*');
    expect(toFtsQuery('oak "block of n"')).toBe('"oak"* "block of n"');
    expect(toFtsQuery('"unclosed phrase')).toBe('"unclosed" "phrase"*');
    expect(toFtsQuery('""')).toBeNull();
  });

  it('turns operators and syntax into plain words or drops them', () => {
    expect(toFtsQuery('main OR oak')).toBe('"main" "OR" "oak"*');
    expect(toFtsQuery('NOT theft')).toBe('"NOT" "theft"*');
    expect(toFtsQuery('NEAR(main oak, 2)')).toBe('"NEAR" "main" "oak" "2"');
    expect(toFtsQuery('address:main ^oak -elm +pine')).toBe('"address" "main" "oak" "elm" "pine"*');
    expect(toFtsQuery('<img src=x onerror=alert(1)>')).toBe('"img" "src" "x" "onerror" "alert" "1"');
    expect(toFtsQuery("'; DROP TABLE incidents; --")).toBe('"DROP" "TABLE" "incidents"*');
    for (const nothing of ['', '   ', '"', '*', '()', '-+*:^', '\u0000'])
      expect(toFtsQuery(nothing)).toBeNull();
  });

  it('keeps letters and digits of any script, composed', () => {
    expect(toFtsQuery('Café')).toBe('"Café"*');
    expect(toFtsQuery('Cafe\u0301')).toBe('"Café"*');
    expect(toFtsQuery('東京 123')).toBe('"東京" "123"*');
  });

  it('caps the number of terms', () => {
    expect(toFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))?.split(' ')).toHaveLength(16);
  });
});

describe('toFtsQuery against a real FTS5 table', () => {
  const db = new Database(':memory:');
  beforeAll(() => {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5 (address, description, tokenize = 'unicode61');`);
    const insert = db.prepare('INSERT INTO t (rowid, address, description) VALUES (?, ?, ?)');
    insert.run(1, '1200 BLOCK OF N MAIN ST', 'Suspect fled on foot');
    insert.run(2, '300 BLOCK OF W OAK AVE', null);
    insert.run(3, 'MAIN AND OAK', 'near the café');
    insert.run(4, '10 BLOCK OF OR ST', 'OR NOT NEAR');
  });
  afterAll(() => db.close());
  const match = (text: string): number[] => {
    const q = toFtsQuery(text);
    return q === null
      ? []
      : (db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid').pluck().all(q) as number[]);
  };

  it('finds prefixes, phrases and words in either column, all terms required', () => {
    expect(match('mai')).toEqual([1, 3]);
    expect(match('main oak')).toEqual([3]);
    expect(match('"block of n"')).toEqual([1]);
    expect(match('fled main')).toEqual([1]);
    expect(match('cafe')).toEqual([3]); // unicode61 folds diacritics
    expect(match('or')).toEqual([4]); // the word, not the operator
    expect(match('near not')).toEqual([4]);
  });

  it('never produces a query SQLite rejects, whatever is typed', () => {
    const rand = prng(99);
    const alphabet = 'ab OR AND NOT NEAR ( ) " * : ^ - + , . \' \\ { } [ ] é 東 0 1 \u0000 \t'.split(' ');
    for (let k = 0; k < 2000; k++) {
      const text = Array.from(
        { length: 1 + Math.floor(rand() * 8) },
        () => alphabet[Math.floor(rand() * alphabet.length)],
      ).join(rand() < 0.5 ? ' ' : '');
      expect(() => match(text), text).not.toThrow();
    }
  });
});
