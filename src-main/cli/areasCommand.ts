/**
 * `areas list | add | remove`: the saved areas, through the same calls as the app's area panel
 * (listAreas, createArea, deleteArea). `add` takes a circle (--circle LAT,LON,RADIUS_MI) or a
 * polygon from a GeoJSON file (--polygon FILE: a Polygon, or a Feature or FeatureCollection whose
 * first geometry is one; its outer ring). `remove ID` deletes the area and the incidents only it
 * brought in (deleteArea's rule; --keep-incidents keeps every incident).
 */
import { readFileSync } from 'node:fs';
import type { AreaShape } from '../../src-shared/sync';
import { one, parseArea, parseId, parsePositiveInt, UsageError, type Parsed } from './args';
import { CallFailure } from './failure';
import { EXIT, type Io } from './io';
import { describeShape, when } from './statusCommand';
import { withSession } from './session';

export const AREAS_FLAGS = {
  values: ['data-dir', 'name', 'circle', 'polygon', 'refresh-minutes'],
  booleans: ['keep-incidents', 'help'],
  words: 2,
};

export async function areasCommand(p: Parsed, io: Io): Promise<number> {
  const [action, id] = p.words;
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`Unexpected argument "${id}".`);
    return list(p, io);
  }
  if (action === 'add') {
    if (id !== undefined) throw new UsageError(`Unexpected argument "${id}".`);
    return add(p, io);
  }
  if (action === 'remove') return remove(p, io, parseId('area id', id));
  throw new UsageError(
    'Say what to do: areas list, areas add --name N (--circle … | --polygon FILE), areas remove ID.',
  );
}

async function list(p: Parsed, io: Io): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const { areas } = await s.call('listAreas', {});
    if (areas.length === 0) io.out('No areas yet (blotter areas add, or sync --area).\n');
    for (const a of areas) {
      io.out(
        `${a.id}\t${a.name}\t${describeShape(a.shape)}\trefresh every ${a.refreshMinutes} min${a.paused ? ', paused' : ''}\t` +
          `last synced ${when(a.lastSyncedAt)}\n`,
      );
    }
    return EXIT.ok;
  });
}

async function add(p: Parsed, io: Io): Promise<number> {
  const name = one(p, 'name', true);
  const circle = one(p, 'circle');
  const polygon = one(p, 'polygon');
  if ((circle === undefined) === (polygon === undefined))
    throw new UsageError(
      'Give the area as --circle "LAT,LON,RADIUS_MI" or --polygon FILE.geojson (one of them).',
    );
  const shape: AreaShape =
    circle !== undefined ? { ...parseArea(circle, 'circle') } : polygonOf(polygon as string);
  const refreshText = one(p, 'refresh-minutes');
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const a = await s.call('createArea', {
      name,
      shape,
      ...(refreshText
        ? { refreshMinutes: parsePositiveInt('refresh-minutes', refreshText, 7 * 24 * 60) }
        : {}),
    });
    io.out(`Area ${a.id} "${a.name}" added: ${describeShape(a.shape)}.\n`);
    return EXIT.ok;
  });
}

async function remove(p: Parsed, io: Io, id: number): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const r = await s.call('deleteArea', {
      id,
      ...(p.flags.has('keep-incidents') ? { keepIncidents: true } : {}),
    });
    if (!r.deleted)
      throw new CallFailure('not_found', `There is no area ${id} (blotter areas list shows them).`);
    io.out(`Area ${id} removed, with ${r.incidentsRemoved} incidents no other area covers.\n`);
    return EXIT.ok;
  });
}

type Geo = { type?: unknown; coordinates?: unknown; geometry?: unknown; features?: unknown };

/** The outer ring of a GeoJSON Polygon ([lon, lat] positions) as [lat, lon] corners, unclosed. */
export function polygonOf(file: string): Extract<AreaShape, { kind: 'polygon' }> {
  let doc: Geo;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as Geo;
  } catch (error) {
    throw new UsageError(`--polygon ${file}: ${(error as Error).message}`);
  }
  let geometry: Geo | undefined = doc;
  if (doc.type === 'FeatureCollection' && Array.isArray(doc.features))
    geometry = (doc.features[0] as Geo | undefined)?.geometry as Geo | undefined;
  else if (doc.type === 'Feature') geometry = doc.geometry as Geo | undefined;
  const ring =
    geometry?.type === 'Polygon' && Array.isArray(geometry.coordinates) ? geometry.coordinates[0] : null;
  if (
    !Array.isArray(ring) ||
    !ring.every((c) => Array.isArray(c) && c.length >= 2 && c.every(Number.isFinite))
  )
    throw new UsageError(`--polygon ${file} must hold a GeoJSON Polygon (or a Feature of one).`);
  const points = (ring as number[][]).map(([lon, lat]) => [lat, lon] as [number, number]);
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) points.pop();
  return { kind: 'polygon', points };
}
