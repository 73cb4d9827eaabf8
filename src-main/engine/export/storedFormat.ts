/**
 * Export lines straight from the store's rows (what the export threads write; exportWorker.ts):
 * the same cells, byte for byte, as BatchFormatter writes from the query engine's snapshot —
 * csv.ts's quoting and formula neutralising, isoInstant for instants, feature() for GeoJSON — with
 * the cells of repeated texts (types, zones, addresses) worked out once.
 */
import { isoInstant } from './batchFormat';
import { ByteLines } from './byteLines';
import { csvField } from '../files/csv';
import { feature } from './geojson';
import type { ExportRow } from './rows';
import { EXPORT_COLUMN_NAMES } from '../../../src-shared/exports';
import type { IncidentColumn, IncidentTuple } from '../store/incidents/incidentRow';

/** The stored column behind each export column: the export's `removed` is `removed_at` set. */
type StoredColumnOf<C> = C extends 'removed' ? 'removed_at' : C;
type StoredColumns<T extends readonly unknown[]> = { -readonly [K in keyof T]: StoredColumnOf<T[K]> };

/** The export's columns but the last, `attributes` (read from incident_imports: attributesOf.ts). */
type IncidentExportColumns<T extends readonly unknown[]> = T extends readonly [...infer Head, 'attributes']
  ? Head
  : never;

/** The columns read from `incidents` for each exported incident: the export's columns, in their order. */
export const STORED_EXPORT_COLUMNS = EXPORT_COLUMN_NAMES.slice(0, -1).map((c) =>
  c === 'removed' ? 'removed_at' : c,
) as unknown as StoredColumns<
  IncidentExportColumns<typeof EXPORT_COLUMN_NAMES>
> satisfies readonly IncidentColumn[];

export type StoredExportRow = IncidentTuple<typeof STORED_EXPORT_COLUMNS>;

const CELL_CACHE = 50_000;

export class StoredFormatter {
  private readonly days = new Map<number, string>();
  private readonly cells = new Map<string, string>();

  /** A text cell that repeats across rows (type, zone, address), quoted once. */
  private cell(text: string): string {
    let out = this.cells.get(text);
    if (out === undefined) {
      out = csvField(text);
      if (this.cells.size >= CELL_CACHE) this.cells.clear();
      this.cells.set(text, out);
    }
    return out;
  }

  /** CSV lines as UTF-8 bytes (see byteLines.ts). */
  csvBytes(rows: readonly StoredExportRow[], attributes: Map<number, string>, reuse?: ArrayBuffer): Buffer {
    const days = this.days;
    const lines = new ByteLines(rows.length * 300, reuse);
    for (const r of rows) {
      lines.add(
        `${r[0]},${this.cell(r[1])},${r[2]},${this.cell(r[3])},${isoInstant(r[4], days)},` +
          `${csvField(r[5])},${this.cell(r[6])},${r[7]},${r[8]},${csvField(r[9])},${csvField(r[10])},` +
          `${isoInstant(r[11], days)},${isoInstant(r[12], days)},${r[13] === null ? 'false' : 'true'},` +
          `${csvField(r[14])},${csvField(attributes.get(r[0]))}\r\n`,
      );
    }
    return lines.bytes();
  }

  /** GeoJSON features separated by `,\n` (the caller puts `\n` or `,\n` before the first). */
  geojson(rows: readonly StoredExportRow[], attributes: Map<number, string>): string {
    let out = '';
    rows.forEach((r, k) => (out += (k === 0 ? '' : ',\n') + feature(this.exportRow(r, attributes))));
    return out;
  }

  /** A stored row as an export row (the GeoPackage thread writes these: gpkgWorker.ts). */
  exportRow(r: StoredExportRow, attributes: Map<number, string>): ExportRow {
    const days = this.days;
    return {
      cdid: r[0],
      type: r[1],
      occurred_local: r[2],
      timezone: r[3],
      occurred_utc: isoInstant(r[4], days),
      date_raw: r[5],
      address: r[6],
      lat: r[7],
      lon: r[8],
      link: r[9],
      description: r[10],
      first_seen: isoInstant(r[11], days),
      last_seen: isoInstant(r[12], days),
      removed: r[13] !== null,
      subtype: r[14],
      attributes: attributes.get(r[0]) ?? null,
    };
  }
}
