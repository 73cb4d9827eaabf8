/**
 * Shapefile export: a zip holding `<name>.shp/.shx/.dbf/.prj/.cpg` — the filtered incidents as
 * points in WGS 84 (EPSG:4326), every export column as a dBASE field. Field names are cut to 10
 * characters (the mapping goes in the manifest's `file.fieldNames`); text over 254 bytes is cut
 * and counted per column in `file.truncated` with the first cdids. Text fields are as wide as the
 * archive's longest type, zone and address (the snapshot's dictionaries), 254 for the rest. The
 * parts are streamed into a private folder beside the destination (headers patched in at the
 * end), then zipped into the job's temporary file; the folder is removed either way.
 */
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_COLUMNS, type ExportRow } from './rows';
import type { Db } from '../store/database';
import { FileSink } from '../files/fileSink';
import {
  keptCell,
  keptColumnsInSlices,
  keptLabel,
  keptValuesOf,
  rowidSlices,
  type KeptColumn,
} from './keptColumns';
import { yieldToEventLoop } from '../eventLoop';
import { dictionaryOf, exportRowBatches, runnerOf, type Writer } from './gisRows';
import {
  cutUtf8,
  dbfHeader,
  dbfRecordLength,
  MAX_TEXT_BYTES,
  PRJ_WGS84,
  SHP_RECORD,
  shortNames,
  shpHeader,
  type DbfField,
} from './shapefileParts';
import { writeZip } from './zipWriter';

const KEEP_CDIDS = 20;

/** dBASE allows 255 fields; the export's own come first, kept columns past that stay in `attributes`. */
const MAX_FIELDS = 255;

/** The dBASE fields of the export columns, sized from the archive's dictionaries, then the kept columns. */
export function dbfFields(
  longest: {
    type: number;
    timezone: number;
    address: number;
    attributes: number;
    /** The longest subtype (an import's own category; 1 when none has one). */
    subtype?: number;
  },
  keptColumns: readonly KeptColumn[] = [],
): DbfField[] {
  const kept = keptColumns.slice(0, MAX_FIELDS - EXPORT_COLUMNS.length);
  const names = shortNames([...EXPORT_COLUMNS, ...kept.map((k) => k.key)]);
  const text = (n: number) => Math.max(1, Math.min(MAX_TEXT_BYTES, n));
  const spec: Record<string, Omit<DbfField, 'name' | 'column'>> = {
    cdid: { type: 'N', length: 18, decimals: 0 },
    type: { type: 'C', length: text(longest.type), decimals: 0 },
    occurred_local: { type: 'C', length: 16, decimals: 0 },
    timezone: { type: 'C', length: text(longest.timezone), decimals: 0 },
    occurred_utc: { type: 'C', length: 24, decimals: 0 },
    date_raw: { type: 'C', length: 40, decimals: 0 },
    address: { type: 'C', length: text(longest.address), decimals: 0 },
    lat: { type: 'N', length: 19, decimals: 11 },
    lon: { type: 'N', length: 19, decimals: 11 },
    link: { type: 'C', length: MAX_TEXT_BYTES, decimals: 0 },
    description: { type: 'C', length: MAX_TEXT_BYTES, decimals: 0 },
    first_seen: { type: 'C', length: 24, decimals: 0 },
    last_seen: { type: 'C', length: 24, decimals: 0 },
    removed: { type: 'L', length: 1, decimals: 0 },
    subtype: { type: 'C', length: text(longest.subtype ?? 1), decimals: 0 },
    // A mapped import's kept columns as JSON text (GeoJSON has them as an object), as wide as the
    // archive's longest (1 when it has none); longer ones are cut and counted like any text.
    attributes: { type: 'C', length: text(longest.attributes), decimals: 0 },
  };
  return [
    ...EXPORT_COLUMNS.map((column, k) => ({
      name: names[k] as string,
      column,
      ...(spec[column] as Omit<DbfField, 'name' | 'column'>),
    })),
    ...kept.map((k, i) => ({
      name: names[EXPORT_COLUMNS.length + i] as string,
      column: keptLabel(k.key),
      kept: k.key,
      type: 'C' as const,
      length: text(k.bytes),
      decimals: 0,
    })),
  ];
}

const longestBytes = (values: readonly string[]): number =>
  values.reduce((n, v) => Math.max(n, Buffer.byteLength(v ?? '', 'utf8')), 1);

/** The longest subtype in the archive, in UTF-8 bytes (a scan of the incidents: no index has it). */
async function longestSubtype(db: Db): Promise<number> {
  // By slices of the table, a turn of the event loop between (a whole-archive scan; issue 31).
  const slice = db
    .prepare('SELECT max(length(CAST(subtype AS BLOB))) FROM incidents WHERE cdid > ? AND cdid <= ?')
    .pluck();
  let n: number | null = null;
  for (const [after, last] of rowidSlices(db, 'incidents', 'subtype IS NOT NULL', SUBTYPE_SLICE)) {
    const m = slice.get(after, last) as number | null;
    if (m !== null) n = Math.max(n ?? 0, m);
    await yieldToEventLoop();
  }
  return n ?? 1;
}

/** Incidents per slice of the subtype scan. */
const SUBTYPE_SLICE = 100_000;

export const shpRunner = runnerOf(shpWriter());

export function shpWriter(): Writer {
  return (job, ctx, onWritten) => {
    const zip = new FileSink(job.dest.path, job.id);
    let folder: string | null = null;
    // The parts' name (and so the layer's name in QGIS): the file's, in plain ASCII — accents
    // dropped (Überfälle → Uberfalle), anything else still not ASCII an underscore.
    const base =
      path
        .basename(job.dest.name, path.extname(job.dest.name))
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^\x20-\x7e]|[/\\]/g, '_') || 'incidents';
    const parts: FileSink[] = [];
    const cleanup = async () => {
      await Promise.all(parts.map((p) => p.abort()));
      await zip.abort();
      if (folder !== null) await rm(folder, { recursive: true, force: true });
    };
    const run = async () => {
      // In run, not before it: a folder Blotter may not write in fails the job, in its words.
      const dir = await mkdtemp(path.join(path.dirname(job.dest.path), '.blotter-shp-'));
      folder = dir;
      const now = new Date(job.createdAt);
      // The archive's widths, read in slices (keptColumns.ts): they scan every row.
      const { kept, longestText } = await keptColumnsInSlices(ctx.db);
      const fields = dbfFields(
        {
          type: longestBytes(dictionaryOf(job, 'types')),
          timezone: longestBytes(dictionaryOf(job, 'zones')),
          address: longestBytes(dictionaryOf(job, 'addresses')),
          attributes: longestText,
          subtype: await longestSubtype(ctx.db),
        },
        kept,
      );
      const hasKept = fields.some((f) => f.kept !== undefined);
      const recordLength = dbfRecordLength(fields);
      const part = (ext: string) => path.join(dir, `${base}${ext}`);
      const shp = new FileSink(part('.shp'), job.id);
      const shx = new FileSink(part('.shx'), job.id);
      const dbf = new FileSink(part('.dbf'), job.id);
      parts.push(shp, shx, dbf);
      const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      const truncated = new Map<string, { cells: number; cdids: number[] }>();
      await shp.write(Buffer.alloc(100));
      await shx.write(Buffer.alloc(100));
      await dbf.write(dbfHeader(fields, 0, now));
      let written = 0;
      for await (const rows of exportRowBatches(job, ctx)) {
        if (job.cancelRequested) return null;
        const shpBytes = Buffer.alloc(rows.length * SHP_RECORD);
        const shxBytes = Buffer.alloc(rows.length * 8);
        const dbfBytes = Buffer.alloc(rows.length * recordLength, 0x20);
        rows.forEach((r, k) => {
          const n = written + k;
          const o = k * SHP_RECORD;
          shpBytes.writeInt32BE(n + 1, o);
          shpBytes.writeInt32BE(10, o + 4);
          shpBytes.writeInt32LE(1, o + 8);
          shpBytes.writeDoubleLE(r.lon, o + 12);
          shpBytes.writeDoubleLE(r.lat, o + 20);
          shxBytes.writeInt32BE((100 + n * SHP_RECORD) / 2, k * 8);
          shxBytes.writeInt32BE(10, k * 8 + 4);
          box[0] = Math.min(box[0], r.lon);
          box[1] = Math.min(box[1], r.lat);
          box[2] = Math.max(box[2], r.lon);
          box[3] = Math.max(box[3], r.lat);
          dbfRecord(dbfBytes, k * recordLength, fields, r, hasKept ? keptValuesOf(r) : {}, (column) => {
            const t = truncated.get(column) ?? { cells: 0, cdids: [] };
            t.cells++;
            if (t.cdids.length < KEEP_CDIDS) t.cdids.push(r.cdid);
            truncated.set(column, t);
          });
        });
        await shp.write(shpBytes);
        await shx.write(shxBytes);
        await dbf.write(dbfBytes);
        written += rows.length;
        onWritten(written);
      }
      if (job.cancelRequested) return null;
      await dbf.write(Buffer.from([0x1a]));
      const bounds: [number, number, number, number] = written === 0 ? [0, 0, 0, 0] : box;
      await Promise.all([shp.finish(), shx.finish(), dbf.finish()]);
      await patch(shp.partPath, shpHeader(100 + written * SHP_RECORD, bounds));
      await patch(shx.partPath, shpHeader(100 + written * 8, bounds));
      await patch(dbf.partPath, dbfHeader(fields, written, now).subarray(0, 12));
      await writeFile(part('.prj'), PRJ_WGS84);
      await writeFile(part('.cpg'), 'UTF-8');
      if (job.cancelRequested) return null;
      await writeZip(
        zip,
        [
          { name: `${base}.shp`, path: shp.partPath },
          { name: `${base}.shx`, path: shx.partPath },
          { name: `${base}.dbf`, path: dbf.partPath },
          { name: `${base}.prj`, path: part('.prj') },
          { name: `${base}.cpg`, path: part('.cpg') },
        ],
        now,
      );
      const bytes = await zip.finish();
      await rm(dir, { recursive: true, force: true });
      return {
        bytes,
        written,
        file: zip,
        fileInfo: {
          crs: 'EPSG:4326' as const,
          fieldNames: Object.fromEntries(fields.map((f) => [f.name, f.column])),
          truncated: [...truncated].map(([column, t]) => ({ column, ...t })),
        },
      };
    };
    return { done: run(), cleanup };
  };
}

/** One dBASE record at `o` (the buffer already spaces): text left-aligned, numbers right-aligned. */
function dbfRecord(
  b: Buffer,
  o: number,
  fields: readonly DbfField[],
  row: ExportRow,
  kept: Record<string, unknown>,
  onCut: (column: string) => void,
): void {
  let at = o + 1; // the deletion flag stays ' '
  for (const f of fields) {
    const value = f.kept === undefined ? row[f.column as keyof ExportRow] : keptCell(kept, f.kept);
    if (f.type === 'L') b.write(value ? 'T' : 'F', at, 'ascii');
    else if (f.type === 'N') {
      const text =
        typeof value === 'number' ? (f.decimals > 0 ? value.toFixed(f.decimals) : String(value)) : '';
      b.write(text.slice(-f.length), at + Math.max(0, f.length - text.length), 'ascii');
    } else if (value !== null && value !== undefined) {
      const { bytes, cut } = cutUtf8(String(value), f.length);
      if (cut) onCut(f.column);
      bytes.copy(b, at);
    }
    at += f.length;
  }
}

async function patch(file: string, header: Buffer): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.write(header, 0, header.length, 0);
  } finally {
    await handle.close();
  }
}
