/** `export`: every incident matching the filters, one row each, as CSV or GeoJSON, to a file or stdout. */
import { createWriteStream } from 'node:fs';
import { writeExport, type ExportFormat } from '../engine/export/writeExport';
import { one, parseArea, parseDayFlag, parseTypes, UsageError, type Parsed } from './args';
import { openDataFolder } from './dataFolder';
import { EXIT, type Io } from './io';

export const EXPORT_FLAGS = {
  values: ['data-dir', 'format', 'out', 'types', 'from', 'to', 'area'],
  booleans: ['help'],
};

export async function exportCommand(p: Parsed, io: Io): Promise<number> {
  const format = one(p, 'format', true);
  if (format !== 'csv' && format !== 'geojson')
    throw new UsageError(`--format must be csv or geojson (got "${format}").`);
  const typesText = one(p, 'types');
  const fromText = one(p, 'from');
  const toText = one(p, 'to');
  const areaText = one(p, 'area');
  const filter = {
    ...(typesText ? { types: parseTypes(typesText) } : {}),
    ...(fromText ? { from: parseDayFlag('from', fromText) } : {}),
    ...(toText ? { to: parseDayFlag('to', toText) } : {}),
    ...(areaText ? { area: parseArea(areaText) } : {}),
  };
  if (filter.from && filter.to && filter.from > filter.to)
    throw new UsageError('--from must not be after --to.');
  const outPath = one(p, 'out');
  const { db } = openDataFolder(io, one(p, 'data-dir'));
  try {
    const out = outPath ? createWriteStream(outPath, { mode: 0o600 }) : process.stdout;
    try {
      const { rows } = await writeExport(db, filter, format as ExportFormat, out, {
        end: outPath !== undefined,
      });
      io.err(`export: ${rows} incidents written${outPath ? ` to ${outPath}` : ''}\n`);
    } catch (error) {
      // A reader that stops early (| head) closes the pipe: that is its choice, not a failure.
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    }
    return EXIT.ok;
  } finally {
    db.close();
  }
}
