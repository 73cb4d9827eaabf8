/**
 * Batches (batches.ts) → CSV text or GeoJSON features, fast enough for a million rows in a few
 * seconds: the cell rules are the export writers' own (csv.ts: csvField, RFC 4180 quoting and
 * formula neutralising; geojson.ts: feature), applied once per distinct type, zone and address
 * (kept per dictionary id) and once per row only for the columns that differ on every row.
 * Every host writes its files through this job (the CLI too: src-main/cli/sameAnswers.test.ts).
 */
import { dayString } from '../../../src-shared/filters';
import type { Snapshot } from '../query/snapshot';
import { REMOVED } from '../query/snapshot';
import type { Batch } from './batches';
import { ByteLines } from './byteLines';
import { csvField } from '../files/csv';
import { feature } from './geojson';
import { EXPORT_COLUMNS, type ExportRow } from './rows';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
const P2 = Array.from({ length: 60 }, (_, n) => pad2(n));
const P3 = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const MINUTES = Array.from({ length: 1440 }, (_, m) => `${P2[Math.floor(m / 60)]}:${P2[m % 60]}`);
const DAY = 86_400_000;
const YEAR_10000 = 253_402_300_800_000;

/**
 * `Date.prototype.toISOString` for whole milliseconds in years 0–9999, a few times faster (the
 * calendar day is formatted once per day); anything else goes to toISOString itself.
 */
export function isoInstant(ms: number, days: Map<number, string>): string {
  if (!(ms >= 0 && ms < YEAR_10000) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY);
  let rest = ms - day * DAY;
  let text = days.get(day);
  if (text === undefined) {
    if (days.size > 100_000) days.clear();
    days.set(day, (text = dayString(day)));
  }
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  return `${text}T${P2[h]}:${P2[m]}:${P2[s]}.${P3[rest - s * 1000]}Z`;
}

/** A one-entry memo: sync writes whole pages with the same first/last seen. */
function isoMemo(days: Map<number, string>): (ms: number) => string {
  let last = Number.NaN;
  let text = '';
  return (ms) => (ms === last ? text : ((last = ms), (text = isoInstant(ms, days))));
}

export class BatchFormatter {
  private readonly days = new Map<number, string>();
  private readonly cells: { type: string[]; zone: string[]; addr: string[] } = {
    type: [],
    zone: [],
    addr: [],
  };
  private readonly firstSeen = isoMemo(this.days);
  private readonly lastSeen = isoMemo(this.days);

  constructor(private readonly snapshot: Snapshot) {}

  /** The header line (CRLF), with the byte-order mark first when asked. */
  static csvHeader(bom: boolean): string {
    return (bom ? '\uFEFF' : '') + EXPORT_COLUMNS.join(',') + '\r\n';
  }

  static readonly geojsonHead = '{"type":"FeatureCollection","features":[';
  static readonly geojsonTail = '\n]}\n';

  /** `YYYY-MM-DDTHH:MM`, the local wall time as stored (occurred_local). */
  private occurredLocal(row: number): string {
    const day = this.snapshot.day[row] as number;
    let text = this.days.get(day);
    if (text === undefined) {
      if (this.days.size > 100_000) this.days.clear();
      this.days.set(day, (text = dayString(day)));
    }
    return `${text}T${MINUTES[this.snapshot.minute[row] as number]}`;
  }

  private cell(kind: 'type' | 'zone' | 'addr', id: number): string {
    const cache = this.cells[kind];
    let text = cache[id];
    if (text === undefined) {
      const dict =
        kind === 'type'
          ? this.snapshot.types
          : kind === 'zone'
            ? this.snapshot.zones
            : this.snapshot.addresses;
      text = cache[id] = csvField(dict.values[id]);
    }
    return text;
  }

  /** A batch's CSV lines, as UTF-8 bytes (see byteLines.ts). */
  csvBytes(batch: Batch, reuse?: ArrayBuffer): Buffer {
    const lines = new ByteLines(batch.rows.length * 300, reuse);
    for (let k = 0; k < batch.rows.length; k++) lines.add(this.csvLine(batch, k));
    return lines.bytes();
  }

  private csvLine(batch: Batch, k: number): string {
    const s = this.snapshot;
    const row = batch.rows[k] as number;
    const [cdid, dateRaw, link, description, firstSeen, lastSeen, subtype] = batch.stored[
      k
    ] as Batch['stored'][number];
    return (
      `${cdid},${this.cell('type', s.type[row] as number)},${this.occurredLocal(row)},` +
      `${this.cell('zone', s.zone[row] as number)},${isoInstant(s.utc[row] as number, this.days)},` +
      `${csvField(dateRaw)},${this.cell('addr', s.addr[row] as number)},${s.lat[row]},${s.lon[row]},` +
      `${csvField(link)},${csvField(description)},${this.firstSeen(firstSeen)},${this.lastSeen(lastSeen)},` +
      `${s.state[row] === REMOVED ? 'true' : 'false'},${csvField(subtype)},${csvField(batch.attributes.get(cdid))}\r\n`
    );
  }

  /** The export row of batch entry k (the shape the CLI's writers take). */
  exportRow(batch: Batch, k: number): ExportRow {
    const s = this.snapshot;
    const row = batch.rows[k] as number;
    const [cdid, dateRaw, link, description, firstSeen, lastSeen, subtype] = batch.stored[
      k
    ] as Batch['stored'][number];
    return {
      cdid,
      type: s.types.values[s.type[row] as number] as string,
      occurred_local: this.occurredLocal(row),
      timezone: s.zones.values[s.zone[row] as number] as string,
      occurred_utc: isoInstant(s.utc[row] as number, this.days),
      date_raw: dateRaw,
      address: s.addresses.values[s.addr[row] as number] as string,
      lat: s.lat[row] as number,
      lon: s.lon[row] as number,
      link,
      description,
      first_seen: this.firstSeen(firstSeen),
      last_seen: this.lastSeen(lastSeen),
      removed: s.state[row] === REMOVED,
      subtype,
      attributes: batch.attributes.get(cdid) ?? null,
    };
  }

  /** GeoJSON features of a batch, each on its own line; `first` says whether none came before. */
  geojson(batch: Batch, first: boolean): string {
    let out = '';
    for (let k = 0; k < batch.rows.length; k++) {
      out += (first && k === 0 ? '\n' : ',\n') + feature(this.exportRow(batch, k));
    }
    return out;
  }
}
