/**
 * The boundaries' helper thread (bundled as boundaryWorker.js; see boundaryThread.ts): runs the one
 * job in its workerData off the engine thread — reading and checking a boundary file (the readers,
 * the limits, each feature's geometry and the self-crossing sweep), or making a preview's area
 * shapes (simplified, checked) — and posts the result or the problem in words.
 * Cancelling is the engine terminating this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError } from '../errors';
import { BoundaryProblem, featureName } from './boundaryFile';
import { areaShapesOf } from './featureAreas';
import { heldFileOf, parsedFeature } from './heldFile';
import { readBoundaryFile } from './readBoundaries';
import type { BoundaryJob, FromBoundaryWorker } from './boundaryThread';

const port = parentPort;
if (!port) throw new Error('boundaryWorker.ts runs as a worker thread');
const job = workerData as BoundaryJob;
const post = (m: FromBoundaryWorker) => port.postMessage(m);

try {
  if (job.kind === 'read') {
    const file = readBoundaryFile(job.file, job.name);
    post({ type: 'done', result: heldFileOf(file) });
  } else {
    const shapes = areaShapesOf(job.features.map(parsedFeature), (f) => featureName(f, job.nameField));
    post({ type: 'done', result: shapes });
  }
} catch (error) {
  post({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    refused: error instanceof BoundaryProblem || error instanceof EngineError,
  });
}
