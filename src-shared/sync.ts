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

/** Which surface of the API the base URL's syncs use, and why (sync/surfaceStore.ts). */
export const SurfaceView = z.object({
  /** The surface new runs use: v1 only once verified against the live surface. */
  using: z.enum(['live', 'v1']),
  state: z.enum(['absent', 'verified', 'mismatch', 'unverified']),
  /** In words, e.g. why Blotter stays on the live surface. */
  reason: z.string(),
  probedAt: z.number(),
  /** Whether /v1/history answered for this key's plan; null until asked. */
  history: z.boolean().nullable(),
});
export type SurfaceView = z.infer<typeof SurfaceView>;

/** The area's v1 safety score and weekly trend, as the service sent them (when the plan allows). */
export const AreaScoreView = z.object({
  fetchedAt: z.number(),
  score: z
    .object({
      score: z.number().int(),
      grade: z.string(),
      radiusMi: z.number(),
      updatedAt: z.string(),
      breakdown: z.object({ violent: z.number(), property: z.number(), qualityOfLife: z.number() }),
    })
    .nullable(),
  trends: z
    .object({
      interval: z.string(),
      buckets: z.array(z.object({ start: z.string(), end: z.string(), count: z.number().int() })),
    })
    .nullable(),
});
export type AreaScoreView = z.infer<typeof AreaScoreView>;

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
      /** The surface the run asked: live, v1, or v1's 36-month history. */
      surface: z.enum(['live', 'v1', 'v1-history']).optional(),
    })
    .nullable(),
  /** Whether a sync of this area is running in this engine now. */
  syncing: z.boolean(),
  /** The service's v1 surface as last probed (null: never probed). */
  surface: SurfaceView.nullable().optional(),
  /** The v1 score and trends of the area (null: none fetched; the plan or the service has none). */
  score: AreaScoreView.nullable().optional(),
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

/**
 * The opt-in 36-month history backfill on v1 (/v1/history, Pro and Enterprise): whether it can run
 * now, why not in words, and what it would cost, before anything is sent.
 */
export const HistoryPlan = z.object({
  available: z.boolean(),
  reason: z.string(),
  areas: z.array(z.object({ areaId: z.number().int(), requests: z.number().int(), minutes: z.number() })),
  requests: z.number().int(),
  minutes: z.number(),
  months: z.number().int(),
});
export type HistoryPlan = z.infer<typeof HistoryPlan>;

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
