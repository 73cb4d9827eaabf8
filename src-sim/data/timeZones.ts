/**
 * Time-zone arithmetic for the simulator: UTC offsets per zone (Intl, cached by UTC hour: every US
 * transition happens on a whole UTC hour), and the formats the API prints.
 */
const HOUR = 3_600_000;
export const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC in minutes at instant `ms` (e.g. -300 for EST), straight from Intl. */
export function intlOffsetMinutes(timeZone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = +p.value;
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** Offsets of one zone, precomputed per UTC hour over a range, with a cached fallback outside it. */
export class ZoneTable {
  private readonly startHour: number;
  private readonly table: Int16Array;
  private readonly extra = new Map<number, number>();

  constructor(
    readonly timeZone: string,
    fromMs: number,
    toMs: number,
  ) {
    this.startHour = Math.floor(fromMs / HOUR);
    const hours = Math.max(1, Math.ceil(toMs / HOUR) - this.startHour + 1);
    this.table = new Int16Array(hours);
    // Whole days share one offset unless a transition falls inside; only those days go hour by hour.
    for (let h = 0; h < hours; h += 24) {
      const a = intlOffsetMinutes(timeZone, (this.startHour + h) * HOUR);
      const b = intlOffsetMinutes(timeZone, (this.startHour + h + 24) * HOUR);
      const end = Math.min(hours, h + 24);
      for (let k = h; k < end; k++) {
        this.table[k] = a === b ? a : intlOffsetMinutes(timeZone, (this.startHour + k) * HOUR);
      }
    }
  }

  /** Offset from UTC in minutes at instant `ms`. */
  offset(ms: number): number {
    const h = Math.floor(ms / HOUR);
    const i = h - this.startHour;
    if (i >= 0 && i < this.table.length) return this.table[i] ?? 0;
    let v = this.extra.get(h);
    if (v === undefined) {
      v = intlOffsetMinutes(this.timeZone, h * HOUR);
      this.extra.set(h, v);
    }
    return v;
  }

  /** The local wall time of `ms` as a fake-UTC epoch (read it with getUTC*). */
  local(ms: number): number {
    return ms + this.offset(ms) * 60_000;
  }

  /** The local calendar day of `ms`, as days since 1970-01-01. */
  localDay(ms: number): number {
    return Math.floor(this.local(ms) / DAY);
  }
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** The legacy `date` format: `MM/DD/YY HH:MM AM/PM`, 12-hour, zero-padded, no zone. */
export function formatLegacyDate(localMs: number): string {
  const d = new Date(localMs);
  const h = d.getUTCHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return (
    `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${pad2(d.getUTCFullYear() % 100)} ` +
    `${pad2(h12)}:${pad2(d.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`
  );
}

/** ISO-8601 with the local offset, e.g. `2025-11-02T01:30:00-05:00`. */
export function formatIsoWithOffset(ms: number, offsetMinutes: number): string {
  const d = new Date(ms + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}` +
    `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`
  );
}

/** `YYYY-MM-DD` of a day number. */
export function formatDay(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** Day number of a real `YYYY-MM-DD` date, or null when the text is not one. */
export function parseDay(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY;
}
