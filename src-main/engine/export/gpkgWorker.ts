/**
 * The GeoPackage thread (built as out/main/gpkgWorker.js; see gpkgExport.ts): writes one export's
 * GeoPackage off the engine's call path. On its own read-only connection to the archive it finds
 * the kept columns (a `json_each` scan of every mapped import's row, ~1.4 s at a million) and reads
 * each batch the engine thread hands it (the cdids of one batch of the filtered set, ascending) as
 * export rows (storedFormat.ts, the cells the CSV has); it writes them, then the areas and the
 * spatial indexes, then the manifest row — each step answered by a message.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { incidentsByCdid } from '../store/incidents/incidentRepo';
import { attributesReader } from './attributesOf';
import { GeoPackageFile, GPKG_TAKEN_NAMES } from './gpkgFile';
import { keptColumnsOf, keptNames, type KeptColumn } from './keptColumns';
import type { AreaOutline } from './gisRows';
import { matchByCdid } from './matchByCdid';
import type { ExportRow } from './rows';
import { STORED_EXPORT_COLUMNS, StoredFormatter, type StoredExportRow } from './storedFormat';

export type GpkgWorkerData = { dbFile: string; partPath: string };
export type ToGpkgWorker =
  /** One batch of the filtered set: its cdids, ascending; `dense`: most of the table between them. */
  | { type: 'rows'; cdids: Float64Array; dense: boolean }
  | { type: 'finish'; areas: AreaOutline[] }
  | { type: 'manifest'; text: string }
  | { type: 'close' };
export type FromGpkgWorker =
  | { type: 'ready'; kept: KeptColumn[]; keptAs: string[]; size: number }
  /** Rows written so far, after a batch. */
  | { type: 'written'; written: number }
  | { type: 'finished'; size: number }
  | { type: 'size'; size: number }
  | { type: 'closed'; size: number }
  | { type: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('gpkgWorker.ts runs as a worker thread');
const { dbFile, partPath } = workerData as GpkgWorkerData;
const post = (m: FromGpkgWorker) => port.postMessage(m);
const failed = (error: unknown) =>
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });

let file: GeoPackageFile | null = null;
let read: ((cdids: Float64Array, dense: boolean) => ExportRow[]) | null = null;
try {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  db.pragma('cache_size = -2000'); // it reads each page once, in order: a small cache does
  // SQLite allows 2,000 columns a table; kept columns past 1,000 stay in `attributes` only.
  const kept = keptColumnsOf(db).slice(0, 1000);
  const keptAs = keptNames(GPKG_TAKEN_NAMES, kept);
  file = new GeoPackageFile(partPath, kept, keptAs);
  const stored = incidentsByCdid(db, STORED_EXPORT_COLUMNS);
  const attributesOf = attributesReader(db);
  const formatter = new StoredFormatter();
  read = (cdids, dense) => {
    const n = cdids.length;
    if (n === 0) return [];
    const found = dense
      ? stored.between(cdids[0] as number, cdids[n - 1] as number)
      : stored.among(Array.from(cdids));
    const attributes = attributesOf(cdids, dense);
    const rows: ExportRow[] = [];
    // Exactly the wanted rows (a range scan also meets rows outside the filter; deleted ones go).
    matchByCdid(cdids, found, (_k, row: StoredExportRow) => rows.push(formatter.exportRow(row, attributes)));
    return rows;
  };
  post({ type: 'ready', kept, keptAs, size: file.size() });
} catch (error) {
  failed(error);
}

port.on('message', (m: ToGpkgWorker) => {
  if (!file || !read) return;
  try {
    if (m.type === 'rows') {
      file.addRows(read(m.cdids, m.dense));
      post({ type: 'written', written: file.written });
    } else if (m.type === 'finish') {
      file.finish(m.areas);
      post({ type: 'finished', size: file.size() });
    } else if (m.type === 'manifest') post({ type: 'size', size: file.putManifest(m.text) });
    else {
      file.close();
      post({ type: 'closed', size: file.size() });
    }
  } catch (error) {
    failed(error);
  }
});
