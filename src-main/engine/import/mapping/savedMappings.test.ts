/**
 * mappings.json against what a page or a hand edit can do to it: a file this version cannot read is
 * kept beside, never overwritten by the next save; a page cannot grow it without end; a value map
 * is bounded and its `__proto__` / `constructor` keys pollute nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ColumnMapping, type ColumnMappingInput } from '../../../../src-shared/importMapping';
import { loadMappings, MAX_SAVED_MAPPINGS, saveMapping } from './savedMappings';

const dirs: string[] = [];
const folder = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'mappings-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const mapping = (name: string, extra: Partial<ColumnMappingInput> = {}) =>
  ColumnMapping.parse({
    name,
    type: 'OFFENSE',
    date: 'REPORTED',
    location: { kind: 'latlon', lat: 'LAT', lon: 'LON' },
    ...extra,
  });
const columns = ['OFFENSE', 'REPORTED', 'LAT', 'LON'];

describe('saved mappings', () => {
  it('refuse a name that differs from a kept one only in case, or holds control characters', async () => {
    // "chicago" beside "Chicago" read alike in the list, but each names its own ids: the same file
    // imported under the other was every incident again.
    const dir = folder();
    await saveMapping(dir, columns, mapping('Chicago'), 1);
    const refused = (name: string) =>
      saveMapping(dir, columns, mapping(name), 2).then(
        () => 'saved',
        (e: Error) => e.message,
      );
    expect(await refused(' chicago')).toMatch(
      /^A mapping named "Chicago" is already kept\. .* Save under "Chicago" to replace it/,
    );
    expect(await refused('Evil\u202eemaN')).toMatch(
      /cannot hold control characters, line breaks or direction overrides/,
    );
    expect(await refused('a/../../b\\c')).toBe('saved'); // only a name: never a path
    expect(await refused('Chicago')).toBe('saved');
    expect(
      loadMappings(dir)
        .map((s) => s.mapping.name)
        .sort(),
    ).toEqual(['Chicago', 'a/../../b\\c']);
    expect(() => mapping('x'.repeat(10_000))).toThrow(/100/);
  });

  it('keep a mappings.json this version cannot read beside the new one, not overwritten', async () => {
    const dir = folder();
    const handEdited = '[{"shape": "a", "savedAt": 1, "mapping": {"name": "Records", "oops": true}}]';
    writeFileSync(path.join(dir, 'mappings.json'), handEdited);
    await saveMapping(dir, columns, mapping('Springfield RMS'), 1_700_000_000_000);
    expect(loadMappings(dir).map((s) => s.mapping.name)).toEqual(['Springfield RMS']);
    const aside = readdirSync(dir).filter((f) => f.startsWith('mappings.unreadable-'));
    expect(aside).toEqual(['mappings.unreadable-1700000000000.json']);
    expect(readFileSync(path.join(dir, aside[0] as string), 'utf8')).toBe(handEdited);
  });

  it(`keep at most ${MAX_SAVED_MAPPINGS}: a new name past that is refused, a kept name still replaces`, async () => {
    const dir = folder();
    const many = Array.from({ length: MAX_SAVED_MAPPINGS }, (_, i) => ({
      shape: 'x',
      savedAt: i,
      mapping: mapping(`m${i}`),
    }));
    writeFileSync(path.join(dir, 'mappings.json'), JSON.stringify(many));
    await expect(saveMapping(dir, columns, mapping('one too many'), 1)).rejects.toThrow(
      /already keeps 200 mappings/,
    );
    await saveMapping(dir, columns, mapping('m7', { type: 'CODE' }), 2);
    const saved = loadMappings(dir);
    expect(saved).toHaveLength(MAX_SAVED_MAPPINGS);
    expect(saved.find((s) => s.mapping.name === 'm7')?.mapping.type).toBe('CODE');
  });

  it('bound a value map, and its __proto__ or constructor keys pollute nothing', async () => {
    const big = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`code${i}`, 'Theft']));
    expect(ColumnMapping.safeParse({ ...mapping('x'), typeMap: big }).success).toBe(false);
    const dir = folder();
    const hostile = JSON.parse(
      '{"__proto__": "Theft", "constructor": "Robbery", "toString": "Assault"}',
    ) as Record<string, string>;
    await saveMapping(dir, columns, mapping('Hostile', { typeMap: hostile }), 3);
    const back = loadMappings(dir)[0]?.mapping.typeMap ?? {};
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back).sort()).toEqual(['constructor', 'toString']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof ({} as { toString: unknown }).toString).toBe('function');
  });
});
