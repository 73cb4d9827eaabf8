/**
 * An export thread (built as out/main/exportWorker.js; see parallelExport.ts): reads the batches the
 * engine thread hands it — the cdids of one batch of the filtered set, in cdid order — from the
 * archive on its own read-only connection and formats them (storedFormat.ts), answering each with
 * the batch's bytes (transferred; GeoJSON features without the separator before the first) and
 * how many of its incidents the store no longer held.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { incidentsByCdid } from '../store/incidents/incidentRepo';
import { attributesReader } from './attributesOf';
import { BufferPool } from './byteLines';
import { matchByCdid } from './matchByCdid';
import { STORED_EXPORT_COLUMNS, StoredFormatter, type StoredExportRow } from './storedFormat';

export type ExportWorkerData = { dbFile: string; format: 'csv' | 'geojson' };
export type ToExportWorker =
  | ExportBatchJob
  /** An answer's ArrayBuffer, back once the file has its bytes: write a later batch into it. */
  | { recycle: ArrayBuffer };
type ExportBatchJob = {
  seq: number;
  /** The batch's cdids, ascending. */
  cdids: Float64Array;
  /** Whether the batch is most of the table between its first and last cdid (a range scan pays). */
  dense: boolean;
};
export type FromExportWorker =
  { seq: number; bytes: Uint8Array; written: number; vanished: number } | { seq: number; failed: string };

const port = parentPort;
if (!port) throw new Error('exportWorker.ts runs as a worker thread');
const { dbFile, format } = workerData as ExportWorkerData;
const db = new Database(dbFile, { readonly: true, fileMustExist: true });
db.pragma('cache_size = -2000'); // it reads each page once, in order: a small cache does
const stored = incidentsByCdid(db, STORED_EXPORT_COLUMNS);
const attributesOf = attributesReader(db);
const formatter = new StoredFormatter();
const pool = new BufferPool();

port.on('message', (message: ToExportWorker) => {
  if ('recycle' in message) {
    pool.give(message.recycle);
    return;
  }
  const { seq, cdids, dense } = message;
  try {
    const n = cdids.length;
    const found =
      n === 0
        ? []
        : dense
          ? stored.between(cdids[0] as number, cdids[n - 1] as number)
          : stored.among(Array.from(cdids));
    // Keep exactly the wanted rows (a range scan also meets rows outside the filter).
    const rows: StoredExportRow[] = [];
    matchByCdid(cdids, found, (_k, row) => rows.push(row));
    let own: Uint8Array;
    const attributes = attributesOf(cdids, dense);
    if (format === 'csv') own = formatter.csvBytes(rows, attributes, pool.take());
    else {
      // A small Buffer may be a view of the shared pool: give the answer an ArrayBuffer of its own.
      const text = Buffer.from(formatter.geojson(rows, attributes), 'utf8');
      own = new Uint8Array(text.buffer.slice(text.byteOffset, text.byteOffset + text.byteLength));
    }
    port.postMessage(
      { seq, bytes: own, written: rows.length, vanished: n - rows.length } satisfies FromExportWorker,
      [own.buffer as ArrayBuffer],
    );
  } catch (error) {
    port.postMessage({
      seq,
      failed: error instanceof Error ? error.message : String(error),
    } satisfies FromExportWorker);
  }
});
