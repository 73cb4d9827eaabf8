/**
 * A records-system CSV for the mapped-import benchmarks: case numbers, offence codes (mapped to
 * Blotter's types through a value map), separate date and time columns, X/Y in Texas North Central
 * State Plane US feet (EPSG 2276) and a kept column; every row valid and its case number new.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { z } from 'zod';
import type { ColumnMapping } from '../../src-shared/importMapping';

const CODES = ['23F', '13A', '90Z', '220', '240', '290'];

/** The mapping an analyst makes for that file in the mapping editor. */
export const RMS_MAPPING: z.input<typeof ColumnMapping> = {
  name: 'bench RMS',
  id: 'Incident Number',
  type: 'Offense',
  typeMap: { '23F': 'Theft', '13A': 'Assault', '220': 'Burglary' },
  address: 'Block Address',
  date: 'Date Reported',
  time: 'Time Reported',
  location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
  keep: ['Beat'],
};

export async function writeRmsCsv(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  out.write(
    'Incident Number,Offense,Block Address,Date Reported,Time Reported,X Coordinate,Y Coordinate,Beat\n',
  );
  let chunk = '';
  for (let k = 0; k < count; k++) {
    const day = 1 + (k % 28);
    const hhmm = String((k * 7) % 24).padStart(2, '0') + String((k * 13) % 60).padStart(2, '0');
    const x = 2_440_000 + ((k * 7919) % 90_000);
    const y = 6_930_000 + ((k * 104_729) % 80_000);
    chunk += `25-${String(k).padStart(7, '0')},${CODES[k % CODES.length]},${(k % 97) * 100} BLK MAIN ST,04/${String(day).padStart(2, '0')}/2025,${hhmm},${x},${y},${100 + (k % 40)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'close');
}
