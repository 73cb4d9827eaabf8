/**
 * `places add FILE | retry | list [--data-dir DIR]`: the offline locator (engine/import/places). An import's
 * rows without coordinates wait as unplaced; `add` keeps a reference file (a zipped Shapefile or .shp
 * of TIGER/Line EDGES or ADDRFEAT street centre lines, or a CSV or GeoJSON of address points) and
 * tries every unplaced row again; `retry` tries them again alone; `list` shows the first 20 with why.
 */
import path from 'node:path';
import type { PlaceOutcome } from '../../src-shared/placesCalls';
import { UsageError, one, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { withSession } from './session';

export const PLACES_FLAGS = { values: ['data-dir'], booleans: ['help'], words: 2 };

/** "12 of 40 placed (block 10, interpolated 2); 28 still unplaced." */
export function outcomeLine(o: PlaceOutcome): string {
  const how = Object.entries(o.byMethod)
    .map(([m, n]) => `${m} ${n}`)
    .join(', ');
  return `Placed ${o.placed} of ${o.tried} unplaced rows${how ? ` (${how})` : ''}; ${o.unplaced} still unplaced.`;
}

export async function placesCommand(p: Parsed, io: Io): Promise<number> {
  const [action, arg] = p.words;
  if (action === 'add') {
    if (arg === undefined) throw new UsageError('Give the reference file: blotter places add FILE.');
    return withSession(io, one(p, 'data-dir'), async (s) => {
      const r = await s.call('addPlaceReference', { source: { path: path.resolve(arg) } });
      io.out(
        `Added ${r.items} ${r.kind} from ${path.basename(arg)}${r.skipped ? ` (${r.skipped} left out: no name, number or range)` : ''}.\n`,
      );
      io.out(`${outcomeLine(r.retry)}\n`);
      return EXIT.ok;
    });
  }
  if (arg !== undefined) throw new UsageError(`Unexpected argument "${arg}".`);
  if (action === 'retry')
    return withSession(io, one(p, 'data-dir'), async (s) => {
      io.out(`${outcomeLine(await s.call('retryPlaces', {}))}\n`);
      return EXIT.ok;
    });
  if (action === 'list')
    return withSession(io, one(p, 'data-dir'), async (s) => {
      const l = await s.call('listUnplaced', { limit: 20 });
      io.out(`${l.count} unplaced rows.\n`);
      for (const r of l.rows)
        io.out(`  row ${r.row}\t${r.address}\t${r.type}\t${r.occurredLocal}\t${r.reason}\n`);
      return EXIT.ok;
    });
  throw new UsageError('Say what to do: places add FILE, places retry, places list.');
}
