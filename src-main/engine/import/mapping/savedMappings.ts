/**
 * Column mappings saved by name in the data folder (`mappings.json`, private to the user), each
 * with the header shape it was made for (src-shared/importMapping.ts `headerShape`: the column
 * names trimmed, case-folded, as a set). A preview given a mapping saves it (a later one of the
 * same name replaces it); a preview of a file whose columns are not Blotter's, given none, uses the
 * saved mapping made for the same header shape, the last saved first. At most MAX_SAVED_MAPPINGS are
 * kept; a mappings.json this version cannot read is moved aside (mappings.unreadable-TIME.json) by
 * the next save, never overwritten.
 */
import { readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ColumnMapping, headerShape } from '../../../../src-shared/importMapping';
import { EngineError } from '../../errors';
import { writeFileAtomically } from '../../files/fileSink';

const Saved = z.array(z.object({ shape: z.string(), savedAt: z.number(), mapping: ColumnMapping }));
type Saved = z.infer<typeof Saved>;

const fileOf = (dataDir: string) => path.join(dataDir, 'mappings.json');

/** C0/C1 controls, line and paragraph separators, bidi embeddings, overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Mappings one data folder keeps, and the bytes of mappings.json read at all. */
export const MAX_SAVED_MAPPINGS = 200;
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** The saved mappings; `unreadable` when a mappings.json is there but this version cannot read it. */
function readSaved(dataDir: string): { saved: Saved; unreadable: boolean } {
  const file = fileOf(dataDir);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { saved: [], unreadable: false }; // none saved yet
  }
  if (size > MAX_FILE_BYTES) return { saved: [], unreadable: true };
  try {
    return { saved: Saved.parse(JSON.parse(readFileSync(file, 'utf8'))), unreadable: false };
  } catch {
    return { saved: [], unreadable: true };
  }
}

export function loadMappings(dataDir: string): Saved {
  return readSaved(dataDir).saved;
}

export async function saveMapping(
  dataDir: string,
  columns: readonly string[],
  mapping: ColumnMapping,
  now: number,
): Promise<void> {
  const { saved, unreadable } = readSaved(dataDir);
  // A file this version cannot read (hand-edited, from a newer Blotter) is kept beside, never overwritten.
  if (unreadable) renameSync(fileOf(dataDir), path.join(dataDir, `mappings.unreadable-${now}.json`));
  if (UNPRINTABLE.test(mapping.name))
    throw new EngineError(
      'bad_input',
      'A mapping’s name cannot hold control characters, line breaks or direction overrides: it is shown in lists and names the file’s incidents. Choose another name.',
    );
  // Names that differ only in case (or spaces around) read alike in a list, but each is its own
  // namespace of ids: the same file imported under the other would be every incident again.
  const fold = (name: string) => name.trim().toLowerCase();
  const alike = saved.find(
    (s) => s.mapping.name !== mapping.name && fold(s.mapping.name) === fold(mapping.name),
  );
  if (alike)
    throw new EngineError(
      'bad_input',
      `A mapping named "${alike.mapping.name}" is already kept. Its incidents' ids are made from its name as spelled, so "${mapping.name}" would import the same rows again as other incidents. Save under "${alike.mapping.name}" to replace it, or choose another name.`,
    );
  const kept = saved.filter((s) => s.mapping.name !== mapping.name);
  if (kept.length >= MAX_SAVED_MAPPINGS)
    throw new EngineError(
      'bad_input',
      `This data folder already keeps ${MAX_SAVED_MAPPINGS} mappings; save this one under the name of one it keeps to replace it.`,
    );
  kept.push({ shape: headerShape(columns), savedAt: now, mapping });
  await writeFileAtomically(fileOf(dataDir), `${JSON.stringify(kept, null, 2)}\n`, String(now));
}

/** The mapping last saved for this header shape, if any. */
export function mappingForHeader(dataDir: string, columns: readonly string[]): ColumnMapping | undefined {
  const shape = headerShape(columns);
  const hits = loadMappings(dataDir).filter((s) => s.shape === shape);
  return hits.sort((a, b) => b.savedAt - a.savedAt)[0]?.mapping;
}
