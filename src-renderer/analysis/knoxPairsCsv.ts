/**
 * A significant Knox cell's pairs as CSV (issue 26, item 5): one row a pair — both incidents' id,
 * type, block address and local date and time with zone, then how far apart (in the bands' unit)
 * and how many days. Cells that could start a formula in a spreadsheet are quoted with a leading
 * apostrophe; every cell is quoted as RFC 4180 asks when it holds a comma, a quote or a line break.
 */
import type { KnoxCellOut, KnoxPairOut } from '../../src-shared/analysis';
import { instantText } from '../../src-shared/localTime';

const cell = (v: string | number): string => {
  let text = String(v);
  if (/^[=+\-@\t\r]/.test(text) && typeof v === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** "0–400 ft, 0–7 days": the cell's bands in words (also its file name's part). */
export const knoxCellText = (c: Pick<KnoxCellOut, 'space' | 'time'>, unit: string): string =>
  `${c.space[0]}–${c.space[1]} ${unit}, ${c.time[0]}–${c.time[1]} days`;

export function knoxPairsCsv(pairs: readonly KnoxPairOut[], unit: string): string {
  const side = (s: 'first' | 'second') => [`${s}_id`, `${s}_type`, `${s}_address`, `${s}_local_time`];
  const rows = [[...side('first'), ...side('second'), `distance_${unit}`, 'days_apart'].join(',')];
  for (const p of pairs) {
    const one = (i: KnoxPairOut['a']) => [i.cdid, i.type, i.address, instantText(i.utc, i.zone)];
    rows.push([...one(p.a), ...one(p.b), p.distance, p.days].map(cell).join(','));
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** The file name of a cell's pairs: "knox-pairs-0-400ft-0-7days.csv". */
export const knoxPairsFile = (c: Pick<KnoxCellOut, 'space' | 'time'>, unit: string): string =>
  `knox-pairs-${c.space[0]}-${c.space[1]}${unit}-${c.time[0]}-${c.time[1]}days.csv`;
