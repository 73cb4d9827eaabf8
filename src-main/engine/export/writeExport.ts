/** Streams an export to any writable (a file, stdout, a save dialog's stream), honouring backpressure. */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../store/database';
import { csvChunks } from './csv';
import { geojsonChunks } from './geojson';
import { exportRows, type ExportFilter, type ExportRow } from './rows';

export type ExportFormat = 'csv' | 'geojson';

export async function writeExport(
  db: Db,
  filter: ExportFilter,
  format: ExportFormat,
  out: Writable,
  opts: { bom?: boolean; end?: boolean } = {},
): Promise<{ rows: number }> {
  let rows = 0;
  function* counted(): Generator<ExportRow> {
    for (const r of exportRows(db, filter)) {
      rows++;
      yield r;
    }
  }
  const chunks = format === 'csv' ? csvChunks(counted(), { bom: opts.bom }) : geojsonChunks(counted());
  await pipeline(Readable.from(chunks), out, { end: opts.end ?? true });
  return { rows };
}
