/**
 * `import FILE [--dry-run] [--mapping NAME | --mapping-file F.json] [--type TYPE]`: the app's import
 * (previewImport, then runImport) with the CLI naming the file as a host. Another system's file is
 * read through a column mapping: one saved by name (getMapping: saved in the app, or by an earlier
 * --mapping-file), or a JSON file holding one (src-shared/importMapping.ts). The preview's words
 * say what the file would add and change — new incidents, held rows replaced or gaining a
 * description, rows kept as held, bad rows — and --dry-run stops there (discardImport): nothing is
 * written. A file of which no row can be read imports nothing and exits 1, naming the columns that
 * failed and on how many rows. `--type TYPE` gives every row of the file one type (a file of
 * shootings, of arrests): the mapping's type column, if it has one, is not read. Ctrl-C while the
 * file is read or written cancels the step (cancelImport): nothing is written, exit 130.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportPreview } from '../../src-shared/exports';
import { ColumnMapping } from '../../src-shared/importMapping';
import { one, UsageError, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

export const IMPORT_FLAGS = {
  values: ['data-dir', 'on-bad-rows', 'mapping', 'mapping-file', 'type'],
  booleans: ['dry-run', 'place', 'help'],
  words: 1,
};

export async function importCommand(p: Parsed, io: Io): Promise<number> {
  const [file] = p.words;
  if (file === undefined)
    throw new UsageError('Give the file to import: blotter import FILE [--dry-run] [--mapping NAME].');
  const onBadRows = one(p, 'on-bad-rows') ?? 'skip';
  if (onBadRows !== 'skip' && onBadRows !== 'abort')
    throw new UsageError(`--on-bad-rows must be skip or abort (got "${onBadRows}").`);
  const name = one(p, 'mapping');
  const mappingFile = one(p, 'mapping-file');
  if (name !== undefined && mappingFile !== undefined)
    throw new UsageError('Give --mapping NAME or --mapping-file F.json, not both.');
  const oneType = one(p, 'type')?.trim();
  if (oneType !== undefined && (oneType === '' || oneType.length > 100))
    throw new UsageError('--type must be a type of 1 to 100 characters (every row gets it).');
  if (oneType !== undefined && name === undefined && mappingFile === undefined)
    throw new UsageError(
      '--type gives every row one type through a mapping: add --mapping NAME or --mapping-file F.json.',
    );
  const fromFile =
    mappingFile === undefined ? undefined : readMappingFile(mappingFile, oneType !== undefined);
  const previewAndRun = async (s: Session): Promise<number> => {
    const given = name !== undefined ? await s.call('getMapping', { name }) : fromFile;
    const mapping = given && oneType !== undefined ? withOneType(given, oneType) : given;
    const preview = await s.call('previewImport', {
      source: { path: path.resolve(file) },
      ...(mapping ? { mapping } : {}),
    });
    io.out(previewLines(preview).join('\n') + '\n');
    if (preview.unusable !== undefined) {
      // Not one row can be read: nothing is imported, and the failure says which column failed how often.
      await s.call('discardImport', { importId: preview.importId });
      io.err(`blotter: ${preview.unusable} Nothing was imported.\n`);
      return EXIT.failed;
    }
    if (p.flags.has('dry-run')) {
      await s.call('discardImport', { importId: preview.importId });
      io.out('Dry run: nothing was written.\n');
      return EXIT.ok;
    }
    const place = p.flags.has('place');
    const r = await s.call('runImport', {
      importId: preview.importId,
      onBadRows,
      ...(place ? { place } : {}),
    });
    io.out(
      `Imported: ${r.inserted} added, ${r.updated} changed, ${r.unchanged} unchanged, ${r.skipped} skipped (${Math.round(r.ms)} ms).\n`,
    );
    if (r.unplaced)
      io.out(
        place
          ? `Placed ${r.placed ?? 0} of the ${r.unplaced} rows without coordinates; ${r.unplaced - (r.placed ?? 0)} wait as unplaced (blotter places add FILE, places retry).\n`
          : `${r.unplaced} rows without coordinates wait as unplaced (--place, or blotter places retry, places them).\n`,
      );
    return EXIT.ok;
  };
  return withSession(io, one(p, 'data-dir'), async (s) => {
    // ^C (or a TERM) cancels the step running in the engine; its call then answers 'cancelled'.
    const onSignal = (): void => void s.call('cancelImport', {}).catch(() => undefined);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      return await previewAndRun(s);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  });
}

/** The mapping with one type for every row instead of its type column and value map. */
function withOneType(mapping: ColumnMapping, type: string): ColumnMapping {
  const { type: _column, typeMap: _map, ...rest } = mapping;
  return { ...rest, constantType: type };
}

/**
 * A column mapping from a JSON file, or a usage error naming what is wrong with it. `oneType`: the
 * type comes from --type, so the file need not name a type column.
 */
export function readMappingFile(file: string, oneType = false): ColumnMapping {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (error) {
    throw new UsageError(
      `Cannot read the mapping file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`The mapping file ${file} is not JSON.`);
  }
  const parsed = ColumnMapping.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(the mapping)'}: ${i.message}`);
    throw new UsageError(`The mapping file ${file} is not a column mapping: ${issues.join('; ')}.`);
  }
  const m = parsed.data;
  if (!oneType && (m.type === undefined) === (m.constantType === undefined))
    throw new UsageError(
      `The mapping file ${file} is not a column mapping: give "type" (the type column) or "constantType" (one type for every row)${m.type === undefined ? '' : ', not both'}.`,
    );
  return m;
}

/** What the import would add and change, from the preview's breakdown of the rows already held. */
export function previewLines(v: ImportPreview): string[] {
  const adds = v.valid - v.duplicatesInFile - v.existing;
  const h = v.held;
  const lines = [
    `${v.fileName}: ${v.mapping ? `through the mapping "${v.mapping}"` : v.format}, ${v.rows} records, ${v.valid} valid${v.duplicatesInFile ? ` (${v.duplicatesInFile} repeated in the file)` : ''}.`,
    `Would add ${adds} new incidents.`,
    `Of the ${v.existing} already held: ${h.replace} replaced by the file's later copy, ${h.describe} gain a description, ` +
      `${h.keptApi} kept as the API has them, ${h.keptHeld} kept as held, ${h.unchanged} unchanged.`,
  ];
  lines.push(...repeatLines(v.repeats));
  if (v.unplaced) {
    const u = v.unplaced;
    lines.push(
      `${u.rows} rows have an address but no coordinates: kept as unplaced (their times read in ${u.zone}, ${ZONE_FROM[u.zoneFrom]}):`,
    );
    for (const x of u.listed.slice(0, 10)) lines.push(`  row ${x.row}: ${x.address} — ${x.reason}`);
    if (u.rows > 10) lines.push(`  … and ${u.rows - 10} more`);
  }
  if (v.errorCount > 0) {
    lines.push(`${v.errorCount} bad rows would be skipped (--on-bad-rows abort imports nothing instead):`);
    lines.push(`  by column: ${v.failures.map((f) => `${f.field ?? 'the record'} ${f.rows}`).join(', ')}`);
    for (const e of v.errors.slice(0, 10))
      lines.push(`  row ${e.row}${e.field ? `, ${e.field}` : ''}: ${e.message}`);
    if (v.errors.length > 10) lines.push(`  … and ${v.errorCount - 10} more`);
  }
  return lines;
}

const ZONE_FROM = {
  mapping: "the mapping's zone",
  file: "the zone of most of the file's placed rows",
  area: "the first area's zone",
  none: 'no zone known',
} as const;

/** The ids on more than one row, and what the run does with each (the first 10). */
export function repeatLines(r: ImportPreview['repeats']): string[] {
  if (r.ids === 0) return [];
  const lines = [
    `${r.ids} id${r.ids === 1 ? ' is' : 's are'} on more than one row; ${r.differing} of those rows differ from the copy kept and would not be imported` +
      (r.differing > 0 ? ' (map an id column unique to each row, or none, to import them all):' : ':'),
  ];
  for (const x of r.listed.slice(0, 10)) {
    const rows = `rows ${x.rows.join(', ')}${x.count > x.rows.length ? ` (and ${x.count - x.rows.length} more)` : ''}`;
    lines.push(
      x.same
        ? `  id ${x.id}: ${rows} are the same record, imported once`
        : `  id ${x.id}: ${rows} differ; only row ${x.kept} is imported, the others add at most a description it lacks`,
    );
  }
  if (r.ids > 10) lines.push(`  … and ${r.ids - 10} more ids`);
  return lines;
}
