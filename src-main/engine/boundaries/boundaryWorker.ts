/**
 * The boundaries' helper thread (bundled as boundaryWorker.js; see boundaryThread.ts): runs the jobs
 * the engine thread sends it, one at a time, off the engine thread — reading and checking a boundary file (the readers,
 * the limits, each feature's geometry and the self-crossing sweep), writing a preview's geometry
 * as the store's JSON, keeping a big preview as a layer (one transaction on a second writer
 * connection), making its area shapes (simplified, checked), or parsing a big kept layer's
 * stored geometry on its own read-only connection (to draw it, or to count near it) — and posts the result or
 * the problem in words, then waits for the next job. Cancelling is the engine terminating this thread.
 */
import Database from 'better-sqlite3';
import { parentPort, type TransferListItem } from 'node:worker_threads';
import { EngineError } from '../errors';
import { ENGINE_NICE, runBelowHost } from '../threadPriority';
import { BoundaryProblem, featureName } from './boundaryFile';
import type { BoundaryJob, FromBoundaryWorker, ToBoundaryWorker } from './boundaryThread';
import { areaShapesOf } from './featureAreas';
import { buffersOf, featureRegionParts } from './featureRegion';
import { heldFileOf, packedBytes, unpackedFeature, unpackGeometry, type PackedGeometry } from './heldFile';
import { countNearLayerIn, packedBuffers, packedLayer } from './layerReads';
import { createLayerStore } from './layerStore';
import { readBoundaryFile } from './readBoundaries';
import { openSecondWriter } from '../store/writeTurns';

const port = parentPort;
if (!port) throw new Error('boundaryWorker.ts runs as a worker thread');
// A step below the engine thread it inherits its value from: on a busy machine the engine's calls
// get a core before this work does (its CPU time is the same).
runBelowHost(ENGINE_NICE + 5);
const post = (m: FromBoundaryWorker, moved: TransferListItem[] = []) => port.postMessage(m, moved);
/** Bytes (or characters) per message to the engine thread. */
const PART_SIZE = 4_000_000;

/** Resolves when the engine thread asks for the next part (it has taken one in and answered what waited). */
let onNext: (() => void) | null = null;
const nextWanted = () => new Promise<void>((resolve) => (onNext = resolve));

/** A packed geometry's arrays, moved to the engine thread rather than copied (this thread is done with them). */
const geometryBuffers = (g: PackedGeometry): TransferListItem[] => [
  g.coords.buffer as ArrayBuffer,
  g.parts.buffer as ArrayBuffer,
];

/**
 * A long list in parts of a few MB, one at a time: the engine thread takes each message in on
 * its own turn (80 MB in one message held it ~90 ms), answering calls between them.
 */
async function postInParts<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  movedOf: (item: T) => TransferListItem[] = () => [],
): Promise<void> {
  for (let start = 0; start < items.length;) {
    let end = start;
    for (let size = 0; end < items.length && (end === start || size < PART_SIZE); end++)
      size += sizeOf(items[end] as T);
    const wanted = nextWanted();
    const part = items.slice(start, end);
    post({ type: 'part', items: part }, part.flatMap(movedOf));
    await wanted;
    start = end;
  }
}

async function run(job: BoundaryJob): Promise<void> {
  if (job.kind === 'read') {
    const { features, ...file } = heldFileOf(readBoundaryFile(job.file, job.name));
    await postInParts(features, packedBytes, (f) => geometryBuffers(f.geometry));
    post({ type: 'done', result: { ...file, features: [] } });
  } else if (job.kind === 'stored') {
    const texts = job.geometries.map((g) => JSON.stringify(unpackGeometry(g)));
    await postInParts(texts, (t) => t.length);
    post({ type: 'done', result: null });
  } else if (job.kind === 'keep') {
    const features = job.features.map((f) => ({
      ...f,
      geometry: JSON.stringify(unpackGeometry(f.geometry)),
    }));
    const db = openSecondWriter(job.dbFile);
    try {
      const layer = createLayerStore(db).create({ ...job.file, features }, job.input, job.now);
      post({ type: 'done', result: layer });
    } finally {
      db.close();
    }
  } else if (job.kind === 'layerFeatures' || job.kind === 'countNear' || job.kind === 'featureRegion') {
    const db = new Database(job.dbFile, { readonly: true, fileMustExist: true });
    try {
      if (job.kind === 'featureRegion') {
        const parts = featureRegionParts(db, job.featureId, job.metres);
        post({ type: 'done', result: parts }, buffersOf(parts));
      } else if (job.kind === 'countNear') {
        const near = await countNearLayerIn(db, job.layerId, job.lat, job.lon, job.metres);
        post({ type: 'done', result: near });
      } else {
        // One message; its arrays moved to the engine thread, not copied.
        const layer = packedLayer(db, job.layerId);
        post({ type: 'done', result: layer }, packedBuffers(layer));
      }
    } finally {
      db.close();
    }
  } else {
    const shapes = areaShapesOf(job.features.map(unpackedFeature), (f) => featureName(f, job.nameField));
    post({ type: 'done', result: shapes });
  }
}

/** One job at a time: the engine thread sends the next only once this one answered. */
port.on('message', (m: ToBoundaryWorker) => {
  if (m.type === 'next') {
    const next = onNext;
    onNext = null;
    next?.();
    return;
  }
  run(m.job).catch((error: unknown) =>
    post({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      refused: error instanceof BoundaryProblem || error instanceof EngineError,
    }),
  );
});
