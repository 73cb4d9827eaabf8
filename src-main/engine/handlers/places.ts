/** Rows without coordinates and the offline locator (engine/import/places; src-shared/placesCalls.ts). */
import { EngineError } from '../errors';
import { openSource } from '../files/sources';
import { refuseOnReplica } from '../store/standalone';
import { ReferenceProblem } from '../import/places/references';
import { countUnplaced, listUnplaced } from '../import/places/unplaced';
import type { EngineContext } from '../context';
import type { HandlerGroup } from './handler';

/** Tries every unplaced row; the placed ones are new incidents for every view. */
async function retry(ctx: EngineContext) {
  refuseOnReplica(ctx.db, 'place imported rows');
  // A large archive's locator runs on the import's helper thread (import/imports.ts `place`).
  const { cdids, ...outcome } = await ctx.services.imports.place(Date.now());
  if (cdids.length > 0) {
    ctx.services.query.incidentsWritten(cdids);
    ctx.emit({ type: 'incidentsChanged' });
  }
  return outcome;
}

export const placesHandlers = {
  listUnplaced: async ({ limit }, ctx) => ({
    count: countUnplaced(ctx.db),
    rows: listUnplaced(ctx.db, limit),
  }),
  retryPlaces: async (_input, ctx) => retry(ctx),
  addPlaceReference: async ({ source }, ctx) => {
    refuseOnReplica(ctx.db, 'place imported rows');
    const opened = openSource(ctx.dataDir, source);
    let added;
    try {
      added = await ctx.services.imports.addReference(opened.file, Date.now(), opened.name);
    } catch (error) {
      if (error instanceof ReferenceProblem) throw new EngineError('bad_input', error.message);
      throw error;
    }
    return { kind: added.kind, items: added.items, skipped: added.skipped, retry: await retry(ctx) };
  },
} satisfies HandlerGroup;
