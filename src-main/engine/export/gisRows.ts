/**
 * The export rows of a job for the GIS writers (GeoPackage, Shapefile, KML): the same batches as
 * CSV and GeoJSON (batches.ts, the query's match set in cdid order) turned into ExportRow by the
 * same formatter (batchFormat.ts), a batch at a time with a turn of the event loop between — so
 * every format holds the same rows with the same cells. Also what the writers share: the areas'
 * outlines (circles as 72-corner polygons) and a cancellable runner around a writer.
 */
import { outlineOf } from '../../../src-shared/geo';
import type { EngineCore } from '../context';
import { createAreaStore } from '../sync/areaStore';
import { exportBatches } from './batches';
import { BatchFormatter } from './batchFormat';
import { rowsOf, type ExportJob, type Runner, type RunnerResult } from './jobs';
import type { ExportRow } from './rows';

/** The filtered rows as export rows, one array per batch (2,000 rows). */
export async function* exportRowBatches(job: ExportJob, ctx: EngineCore): AsyncGenerator<ExportRow[]> {
  const resolved = rowsOf(job);
  const format = new BatchFormatter(resolved.snapshot);
  for await (const batch of exportBatches(ctx.db, resolved)) {
    yield Array.from({ length: batch.rows.length }, (_, k) => format.exportRow(batch, k));
  }
}

/** The values of the snapshot's dictionaries (types, zones, addresses) for sizing fields and styles. */
export function dictionaryOf(job: ExportJob, kind: 'types' | 'zones' | 'addresses'): readonly string[] {
  return rowsOf(job).snapshot[kind].values as readonly string[];
}

export type AreaOutline = { id: number; name: string; kind: string; ring: [number, number][] };

/** The saved areas as closed rings of [lat, lon] (the filter's drawn polygon, if any, as area 0). */
export function areaOutlines(job: ExportJob, ctx: EngineCore): AreaOutline[] {
  const out: AreaOutline[] = createAreaStore(ctx.db)
    .list()
    .map((a) => ({ id: a.id, name: a.name, kind: a.shape.kind, ring: outlineOf(a.shape) }));
  const area = job.filters.area;
  if (area && 'polygon' in area)
    out.push({ id: 0, name: 'Filter polygon', kind: 'filter', ring: area.polygon.map((p) => [p[0], p[1]]) });
  if (area && 'circle' in area)
    out.push({
      id: 0,
      name: 'Filter circle',
      kind: 'filter',
      ring: outlineOf({ kind: 'circle', ...area.circle }),
    });
  return out.map((a) => ({ ...a, ring: closed(a.ring) }));
}

const closed = (ring: [number, number][]): [number, number][] => {
  const [first, last] = [ring[0], ring[ring.length - 1]];
  return first && last && (first[0] !== last[0] || first[1] !== last[1]) ? [...ring, first] : ring;
};

/** The writer side of a runner: writes the job's file (or null when cancelled); `cleanup` on failure. */
export type Writer = (
  job: ExportJob,
  ctx: EngineCore,
  onWritten: (written: number) => void,
) => { done: Promise<RunnerResult | null>; cleanup: () => Promise<void> };

/** A runner from a writer: progress, and a cancel or failure removes what it wrote. */
export const runnerOf =
  (writer: Writer): Runner =>
  (job, ctx, progress) => {
    const { done: written, cleanup } = writer(job, ctx, (n) => {
      job.done = n;
      progress();
    });
    const done = written.then(
      async (result) => {
        if (!result || job.cancelRequested) {
          await cleanup();
          return null;
        }
        return result;
      },
      async (error: unknown) => {
        await cleanup();
        throw error;
      },
    );
    job.onCancel = () =>
      done.then(
        () => undefined,
        () => undefined,
      );
    return { done };
  };
