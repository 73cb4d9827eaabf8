/**
 * A first mapping for a file's columns, by name and by content: the names records systems and
 * dispatch exports use for id, offence, address, date, time and coordinates, then the sample
 * values (a column of dates, of numbers in a latitude's range, of State Plane–sized numbers). The
 * user changes what it got wrong in the preview.
 */
import type { ColumnMappingInput } from '../../../../src-shared/importMapping';
import { readClock, readDateTime } from './dates';
import { zonesForExtent } from './projection';

const NAMES: Record<string, RegExp> = {
  id: /^(cdid|id|incident.?(number|no|num|id)|case.?(number|no|num|id)|report.?(number|no)|event.?(number|no|id)|cad.?(number|no)|rd.?no|record.?id|objectid)$/,
  type: /^(type|offen[cs]e(.?(code|type|description|desc))?|crime(.?type)?|ucr.?(code|desc)?|nibrs.?(code|desc)?|incident.?type|call.?type|nature|category|charge)$/,
  address: /^(address|block.?address|location|street|addr|block|incident.?address|location.?address)$/,
  date: /^(date|date.?time|occurred.?(date|on|at)?|occurrence.?date|date.?(reported|occurred|of.?occurrence)|reported.?(date|on)|incident.?date|from.?date|datetime|timestamp)$/,
  time: /^(time|time.?(reported|occurred|of.?occurrence)|occurred.?time|time.?occurred|occurrence.?time|reported.?time|incident.?time|hour|from.?time)$/,
  lat: /^(lat|latitude|y.?lat|point.?y.?lat)$/,
  lon: /^(lon|lng|long|longitude|x.?lon)$/,
  x: /^(x|x.?coord(inate)?|easting|point.?x|xcoord|x_coordinate|state.?plane.?x)$/,
  y: /^(y|y.?coord(inate)?|northing|point.?y|ycoord|y_coordinate|state.?plane.?y)$/,
  description: /^(description|narrative|summary|details|notes|remarks)$/,
};

const key = (c: string) =>
  c
    .trim()
    .toLowerCase()
    .replace(/[\s_\-./#]+/g, '_');
const byName = (columns: readonly string[], field: string): string | undefined =>
  columns.find((c) => (NAMES[field] as RegExp).test(key(c)));

const numbers = (rows: readonly Record<string, string>[], c: string): number[] =>
  rows.map((r) => Number(r[c])).filter((n) => Number.isFinite(n) && n !== 0);

export type Proposal = { mapping: Partial<ColumnMappingInput>; zones: { epsg: number; name: string }[] };

export function proposeMapping(
  columns: readonly string[],
  sample: readonly Record<string, string>[],
): Proposal {
  const m: Partial<ColumnMappingInput> = {};
  const pick = (field: string) => byName(columns, field);
  m.id = pick('id');
  m.type = pick('type');
  m.address = pick('address');
  m.description = pick('description');
  // Dates: by name, else the first column whose values read as dates.
  m.date =
    pick('date') ??
    columns.find(
      (c) =>
        sample.length > 0 &&
        sample.every((r) => !r[c] || !('expected' in readDateTime(r[c] as string, null))) &&
        /[/-]/.test(sample[0]?.[c] ?? ''),
    );
  const time = pick('time');
  if (time && time !== m.date && sample.every((r) => !r[time] || readClock(r[time] as string) !== null))
    m.time = time;
  let zones: Proposal['zones'] = [];
  const [lat, lon, x, y] = [pick('lat'), pick('lon'), pick('x'), pick('y')];
  const inRange = (c: string | undefined, max: number) =>
    c !== undefined && numbers(sample, c).length > 0 && numbers(sample, c).every((n) => Math.abs(n) <= max);
  if (lat && lon && inRange(lat, 90) && inRange(lon, 180)) m.location = { kind: 'latlon', lat, lon };
  else if (x && y && inRange(x, 180) && inRange(y, 90)) m.location = { kind: 'latlon', lat: y, lon: x };
  else if (x && y) {
    const xs = numbers(sample, x);
    const ys = numbers(sample, y);
    if (xs.length > 0 && ys.length > 0) {
      const found = zonesForExtent({
        minX: Math.min(...xs),
        minY: Math.min(...ys),
        maxX: Math.max(...xs),
        maxY: Math.max(...ys),
      });
      zones = found.map((z) => ({ epsg: z.epsg, name: z.name }));
      m.location = { kind: 'xy', x, y, ...(found[0] ? { epsg: found[0].epsg } : {}) };
    }
  }
  const used = new Set([m.id, m.type, m.address, m.description, m.date, m.time, lat, lon, x, y]);
  m.keep = columns.filter((c) => !used.has(c));
  for (const k of Object.keys(m) as (keyof typeof m)[]) if (m[k] === undefined) delete m[k];
  return { mapping: m, zones };
}
