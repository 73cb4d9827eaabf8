/**
 * Areas and syncs as the renderer sees them: the shapes a user draws, an area's view, the plan of a
 * sync before it starts, and the progress states. Pure zod; the engine owns the behaviour.
 */
import { z } from 'zod';
import { MAX_POLYGON_POINTS, MAX_RADIUS_MI } from './geo/shapes';

const Lat = z
  .number()
  .min(-90, 'Latitude must be between -90 and 90.')
  .max(90, 'Latitude must be between -90 and 90.');
const Lon = z
  .number()
  .min(-180, 'Longitude must be between -180 and 180.')
  .max(180, 'Longitude must be between -180 and 180.');

/** Largest area radius in miles: a metro area (geo/shapes.ts). */
export const MAX_AREA_RADIUS_MI = MAX_RADIUS_MI;

export const AreaShape = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('circle'),
      lat: Lat,
      lon: Lon,
      radiusMi: z
        .number()
        .positive('The radius must be greater than 0 miles.')
        .max(MAX_AREA_RADIUS_MI, `The radius may be at most ${MAX_AREA_RADIUS_MI} miles.`),
    })
    .strict(),
  z
    .object({
      kind: z.literal('polygon'),
      /** Corners as [lat, lon]; the ring closes itself. */
      points: z
        .array(z.tuple([Lat, Lon]))
        .min(3, 'A polygon needs at least 3 points.')
        .max(MAX_POLYGON_POINTS, `A polygon may have at most ${MAX_POLYGON_POINTS} points.`),
    })
    .strict(),
]);
export type AreaShape = z.infer<typeof AreaShape>;

export const AreaName = z.string().trim().min(1, 'Give the area a name.').max(120, 'The name is too long.');
export const RefreshMinutes = z
  .number()
  .int()
  .min(1)
  .max(7 * 24 * 60);

export const SyncState = z.enum([
  'planning',
  'running',
  'waiting-rate',
  'offline',
  'retrying',
  'done',
  'failed',
  'paused',
]);
export type SyncState = z.infer<typeof SyncState>;

export const SyncKind = z.enum(['backfill', 'refresh']);

export const AreaView = z.object({
  id: z.number().int(),
  name: z.string(),
  shape: AreaShape,
  refreshMinutes: z.number().int(),
  paused: z.boolean(),
  createdAt: z.number(),
  lastSyncedAt: z.number().nullable(),
  /** When the whole plan window was last mirrored (null: never; the next sync is a backfill). */
  backfilledAt: z.number().nullable(),
  /** The latest run: its state and figures, or null before the first sync. */
  lastRun: z
    .object({
      runId: z.number().int(),
      kind: SyncKind,
      state: z.enum(['running', 'done', 'failed', 'cancelled']),
      startedAt: z.number(),
      finishedAt: z.number().nullable(),
      requests: z.number().int(),
      new: z.number().int(),
      updated: z.number().int(),
      removed: z.number().int(),
      error: z.string().nullable(),
    })
    .nullable(),
  /** Whether a sync of this area is running in this engine now. */
  syncing: z.boolean(),
});
export type AreaView = z.infer<typeof AreaView>;

export const SyncPlanArea = z.object({
  areaId: z.number().int(),
  kind: SyncKind,
  tiles: z.number().int(),
  requests: z.number().int(),
  minutes: z.number(),
  /** 'local-data': estimated from incidents already stored; 'minimum': nothing known yet, at least this many. */
  basis: z.enum(['local-data', 'minimum']),
});

export const SyncPlan = z.object({
  areas: z.array(SyncPlanArea),
  requests: z.number().int(),
  minutes: z.number(),
  ratePerMinute: z.number(),
});
export type SyncPlan = z.infer<typeof SyncPlan>;

/** The figures of a progress event (the contract adds `type` and a typed `error`). */
export const SyncProgressFields = z.object({
  areaId: z.number().int(),
  runId: z.number().int(),
  kind: SyncKind,
  state: SyncState,
  planned: z.number().int(),
  done: z.number().int(),
  new: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  etaSeconds: z.number().nullable(),
  /** Plain words for the status line, e.g. "Waiting 12 s: the server asked us to slow down". */
  message: z.string().optional(),
  /** When the current wait ends (epoch ms), for waiting-rate, retrying and offline. */
  retryAt: z.number().optional(),
});

/** One area's finished run, as `runSync` answers it. */
export const SyncRunSummary = z.object({
  areaId: z.number().int(),
  runId: z.number().int(),
  kind: SyncKind,
  state: z.enum(['done', 'failed', 'cancelled']),
  new: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  /** Sum over the root tiles of max(1, ceil(n / 500)): no sync of this area can take fewer requests. */
  lowerBound: z.number().int().nullable(),
  /** ceil(N / 500), N = the area's incidents that occurred after the run's since: the same on any server. */
  fairLowerBound: z.number().int().nullable().optional(),
  /** Spots that could not be proven complete, in plain words (empty when the run is complete). */
  incomplete: z.array(z.string()),
  /** For state 'failed': an ErrorCode of the contract and plain words. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type SyncRunSummary = z.infer<typeof SyncRunSummary>;

export const SyncRunResult = z.object({
  runs: z.array(SyncRunSummary),
  /** Requests sent (every attempt) and 429s received by this engine since it started. */
  requests: z.number().int(),
  rateLimited: z.number().int(),
  /** ceil(N / 500), N = distinct incidents inside the union of the runs' areas after their since. */
  fairLowerBound: z.number().int().optional(),
});
export type SyncRunResult = z.infer<typeof SyncRunResult>;
