/** The table's caption: how many rows, in which order, measured from where. Pure. */
import type { GeoPoint } from '../../src-shared/filters';
import { count } from '../text/count';
import type { Sort } from './sortState';

const ORDER: Record<Sort['by'], Record<Sort['dir'], string>> = {
  date: { desc: 'newest first', asc: 'oldest first' },
  type: { asc: 'by type, A to Z', desc: 'by type, Z to A' },
  address: { asc: 'by address, A to Z', desc: 'by address, Z to A' },
  distance: { asc: 'nearest first', desc: 'farthest first' },
};

export function tableCaption(
  total: number,
  sort: Sort,
  center: GeoPoint | null,
  areaName: string | null,
): string {
  const rows = `${count(total)} ${total === 1 ? 'incident' : 'incidents'}, ${ORDER[sort.by][sort.dir]}`;
  if (!center) return rows;
  return `${rows} · distances from the centre of ${areaName ?? 'the area'}`;
}
