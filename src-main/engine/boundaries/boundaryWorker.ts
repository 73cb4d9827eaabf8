/**
 * The boundaries' helper thread (bundled as boundaryWorker.js; see boundaryThread.ts): runs the one
 * job in its workerData off the engine thread — reading and checking a boundary file (the readers,
 * the limits, each feature's geometry and the self-crossing sweep), or making a preview's area
 * shapes (simplified, checked) — and posts the result or the problem in words.
 * Cancelling is the engine terminating this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError } from '../errors';
import { ENGINE_NICE, runBelowHost } from '../threadPriority';
import { BoundaryProblem, featureName } from './boundaryFile';
import { areaShapesOf } from './featureAreas';
import { heldFileOf, parsedFeature, type HeldFeature } from './heldFile';
import { readBoundaryFile } from './readBoundaries';
import type { BoundaryJob, FromBoundaryWorker } from './boundaryThread';

const port = parentPort;
if (!port) throw new Error('boundaryWorker.ts runs as a worker thread');
const job = workerData as BoundaryJob;
// A step below the engine thread it inherits its value from: on a busy machine the engine's calls
// get a core before this reading does (the reading's CPU time is the same).
runBelowHost(ENGINE_NICE + 5);
const post = (m: FromBoundaryWorker) => port.postMessage(m);
/** Characters of geometry per message to the engine thread. */
const PART_CHARS = 4_000_000;

/** The engine thread asks for the next part once it has taken one in (and answered what waited). */
const nextWanted = () => new Promise<void>((resolve) => port.once('message', () => resolve()));

async function run(): Promise<void> {
  if (job.kind === 'read') {
    const { features, ...file } = heldFileOf(readBoundaryFile(job.file, job.name));
    // In parts of a few MB, one at a time: the engine thread copies each message in on its own
    // turn (80 MB of geometry in one message held it ~90 ms), answering calls between them.
    for (let start = 0; start < features.length;) {
      let end = start;
      for (let chars = 0; end < features.length && (end === start || chars < PART_CHARS); end++)
        chars += (features[end] as HeldFeature).geometry.length;
      const wanted = nextWanted();
      post({ type: 'features', features: features.slice(start, end) });
      await wanted;
      start = end;
    }
    post({ type: 'done', result: { ...file, features: [] } });
  } else {
    const shapes = areaShapesOf(job.features.map(parsedFeature), (f) => featureName(f, job.nameField));
    post({ type: 'done', result: shapes });
  }
}

run().catch((error: unknown) =>
  post({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    refused: error instanceof BoundaryProblem || error instanceof EngineError,
  }),
);
