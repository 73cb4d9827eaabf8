/**
 * The export rows of a job for the GIS writers (GeoPackage, Shapefile, KML): the same batches as
 * CSV and GeoJSON (batches.ts, the query's match set in cdid order) turned into ExportRow by the
 * same formatter (batchFormat.ts), a batch at a time with a turn of the event loop between — so
 * every format holds the same rows with the same cells. Also what the writers share: the areas'
 * outlines (circles as 72-corner polygons) and a cancellable runner around a writer.
 */
import { outlineOf, ringArea2 } from '../../../src-shared/geo';
import { featureLabel } from '../boundaries/featureRegion';
import { createLayerStore } from '../boundaries/layerStore';
import { createAreaStore } from '../areas/areaStore';
import { exportBatches } from './batches';
import { BatchFormatter } from './batchFormat';
import { rowsOf, type ExportCore, type ExportJob, type Runner, type RunnerResult } from './jobs';
import type { ExportRow } from './rows';
import { endOfRunner } from './runnerEnd';

/** The filtered rows as export rows, one array per batch (2,000 rows). */
export async function* exportRowBatches(job: ExportJob, ctx: ExportCore): AsyncGenerator<ExportRow[]> {
  const resolved = rowsOf(job);
  const format = new BatchFormatter(resolved.snapshot);
  // 1,000 rows a batch: a batch is formatted and written between turns of the event loop (issue 31).
  for await (const batch of exportBatches(ctx.db, resolved, { batchRows: 1000 })) {
    yield Array.from({ length: batch.rows.length }, (_, k) => format.exportRow(batch, k));
  }
}

/** The values of the snapshot's dictionaries (types, zones, addresses) for sizing fields and styles. */
export function dictionaryOf(job: ExportJob, kind: 'types' | 'zones' | 'addresses'): readonly string[] {
  return rowsOf(job).snapshot[kind].values as readonly string[];
}

/**
 * An area as the GIS formats write it: one polygon, its rings closed [lat, lon] — the outer ring
 * first and counter-clockwise (longitude as x), holes after it and clockwise: the orientation of
 * OGC Simple Features, RFC 7946 and KML, so no reader has to guess which ring is a hole.
 */
export type AreaOutline = { id: number; name: string; kind: string; rings: [number, number][][] };

/**
 * The saved areas (circles as 72 corners), then the filter's own shape: its drawn polygon or
 * circle (id 0), or the reference-layer feature it filters by (id 0, one outline per polygon part,
 * with its holes; a point feature has no outline, and a buffer is not drawn: the kind says so).
 */
export function areaOutlines(job: ExportJob, ctx: ExportCore): AreaOutline[] {
  const out: (Omit<AreaOutline, 'rings'> & { rings: (readonly (readonly [number, number])[])[] })[] = [];
  for (const a of createAreaStore(ctx.db).list())
    out.push({ id: a.id, name: a.name, kind: a.shape.kind, rings: [outlineOf(a.shape)] });
  const area = job.filters.area;
  if (area && 'polygon' in area)
    out.push({ id: 0, name: 'Filter polygon', kind: 'filter', rings: [area.polygon] });
  if (area && 'circle' in area)
    out.push({
      id: 0,
      name: 'Filter circle',
      kind: 'filter',
      rings: [outlineOf({ kind: 'circle', ...area.circle })],
    });
  const ref = job.filters.feature;
  const feature = ref ? createLayerStore(ctx.db).feature(ref.featureId) : undefined;
  if (ref && feature?.geometry.kind === 'polygons') {
    const parts = feature.geometry.polygons.filter((rings) => (rings[0]?.length ?? 0) >= 3);
    const label = featureLabel(ctx.db, ref) ?? feature.name;
    const kind = (ref.bufferM ?? 0) > 0 ? `filter feature (+${ref.bufferM} m not drawn)` : 'filter feature';
    parts.forEach((rings, k) =>
      out.push({
        id: 0,
        name: parts.length > 1 ? `${label}, part ${k + 1} of ${parts.length}` : label,
        kind,
        rings: rings.filter((r) => r.length >= 3),
      }),
    );
  }
  return out.map((a) => ({ ...a, rings: a.rings.map((r, k) => oriented(closed(r), k === 0)) }));
}

const closed = (ring: readonly (readonly [number, number])[]): [number, number][] => {
  const copy = ring.map(([lat, lon]): [number, number] => [lat, lon]);
  const [first, last] = [copy[0], copy[copy.length - 1]];
  return first && last && (first[0] !== last[0] || first[1] !== last[1]) ? [...copy, first] : copy;
};

/** The ring counter-clockwise when it is an outer ring, clockwise when it is a hole. */
const oriented = (ring: [number, number][], outer: boolean): [number, number][] =>
  ringArea2(ring) > 0 === outer ? ring : ring.reverse();

/** The writer side of a runner: writes the job's file (or null when cancelled); `cleanup` on failure. */
export type Writer = (
  job: ExportJob,
  ctx: ExportCore,
  onWritten: (written: number) => void,
) => { done: Promise<RunnerResult | null>; cleanup: () => Promise<void> };

/** A runner from a writer: progress, and a cancel or failure removes what it wrote. */
export const runnerOf =
  (writer: Writer): Runner =>
  (job, ctx, progress) => {
    const { done, cleanup } = writer(job, ctx, (n) => {
      job.done = n;
      progress();
    });
    return endOfRunner(job, done, cleanup);
  };
