/**
 * Column mappings saved by name in the data folder (`mappings.json`, private to the user), each
 * with the header shape it was made for (src-shared/importMapping.ts `headerShape`: the column
 * names trimmed, case-folded, as a set). A preview given a mapping saves it (a later one of the
 * same name replaces it); a preview of a file whose columns are not Blotter's, given none, uses the
 * saved mapping made for the same header shape, the last saved first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ColumnMapping, headerShape } from '../../../../src-shared/importMapping';
import { writeFileAtomically } from '../../export/fileSink';

const Saved = z.array(z.object({ shape: z.string(), savedAt: z.number(), mapping: ColumnMapping }));
type Saved = z.infer<typeof Saved>;

const fileOf = (dataDir: string) => path.join(dataDir, 'mappings.json');

export function loadMappings(dataDir: string): Saved {
  try {
    return Saved.parse(JSON.parse(readFileSync(fileOf(dataDir), 'utf8')));
  } catch {
    return []; // none yet, or a file this version cannot read: start again
  }
}

export async function saveMapping(
  dataDir: string,
  columns: readonly string[],
  mapping: ColumnMapping,
  now: number,
): Promise<void> {
  const kept = loadMappings(dataDir).filter((s) => s.mapping.name !== mapping.name);
  kept.push({ shape: headerShape(columns), savedAt: now, mapping });
  await writeFileAtomically(fileOf(dataDir), `${JSON.stringify(kept, null, 2)}\n`, String(now));
}

/** The mapping last saved for this header shape, if any. */
export function mappingForHeader(dataDir: string, columns: readonly string[]): ColumnMapping | undefined {
  const shape = headerShape(columns);
  const hits = loadMappings(dataDir).filter((s) => s.shape === shape);
  return hits.sort((a, b) => b.savedAt - a.savedAt)[0]?.mapping;
}
