/**
 * The sync service of one engine (built once by services.ts): connection from the settings, the
 * keychain and the engine's fetch; progress and connectivity as engine events. The engine starts
 * its refresh scheduler only when EngineOptions.scheduler says so (the app hosts; never the CLI).
 * Also turns API failures into the EngineErrors the dispatcher answers.
 */
import { planLimits } from '../../../src-shared/plans';
import type { AreaView } from '../../../src-shared/sync';
import { ApiError } from '../api/apiError';
import { requireKeyMayGoTo } from '../api/keyAddress';
import type { FetchLike } from '../api/source';
import type { EngineCore } from '../core';
import { EngineError } from '../errors';
import { readApiKey } from '../secrets/apiKey';
import type { AreaRecord } from '../areas/areaStore';
import type { WriteTurns } from '../store/writeTurns';
import type { SyncLimits } from './planner';
import type { PageCommitted } from './runTypes';
import { createSyncService, type Connection, type OfficeSync, type SyncService } from './syncService';

/** What the sync uses of the engine's core: the file, its log and events, the settings and the key. */
export type SyncCore = Pick<
  EngineCore,
  'db' | 'log' | 'emit' | 'onClose' | 'settings' | 'secrets' | 'keyAccount' | 'host'
>;

/** The engine's sync service; closed with the engine. */
export function createEngineSync(
  ctx: SyncCore & { writeTurns?: WriteTurns },
  fetch: () => Promise<FetchLike>,
  wiring: {
    /** Office mode: a sync leads or follows through the office link (asked at each start). */
    office?: () => OfficeSync | null;
    /** Inside each page's transaction: the engine's alerts (runTypes.ts PageCommitted). */
    onPageCommitted?: PageCommitted;
  } = {},
): SyncService {
  const service = createSyncService({
    ...(wiring.office ? { office: wiring.office } : {}),
    ...(wiring.onPageCommitted ? { onPageCommitted: wiring.onPageCommitted } : {}),
    db: ctx.db,
    ...(ctx.writeTurns ? { writeTurns: ctx.writeTurns } : {}),
    log: ctx.log,
    emit: (e) => ctx.emit(e),
    onConnectivity: (e) => ctx.emit(e),
    onIncidentsChanged: (e) => ctx.emit(e),
    connect: () => connectionOf(ctx, fetch),
  });
  ctx.onClose(() => service.close());
  return service;
}

export function limitsOf(ctx: Pick<EngineCore, 'settings'>): SyncLimits {
  const settings = ctx.settings.get();
  const l = planLimits(settings.plan, settings);
  return { ratePerMinute: l.ratePerMinute, windowDays: l.windowDays };
}

export async function connectionOf(
  ctx: Omit<SyncCore, 'onClose'>,
  fetch: () => Promise<FetchLike>,
): Promise<Connection> {
  const settings = ctx.settings.get();
  if (!settings.baseUrl) {
    throw new EngineError('bad_input', 'Set the service’s base URL in Settings before syncing.');
  }
  const key = await readApiKey(ctx.secrets, ctx.keyAccount);
  requireKeyMayGoTo(ctx, settings.baseUrl); // never to a base URL the key was not confirmed for
  return { baseUrl: settings.baseUrl, key, limits: limitsOf(ctx), fetch: await fetch() };
}

/** Runs `work`, answering API failures as EngineErrors with their plain-words message. */
export async function asEngineError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw new EngineError(error.code, error.message);
    throw error;
  }
}

export function areaView(service: SyncService, a: AreaRecord): AreaView {
  const run = service.jobs.latestRun(a.id);
  const { runSurface, ...surfaces } = service.surfaceViews(a.id, run?.id ?? null);
  return {
    id: a.id,
    name: a.name,
    shape:
      a.shape.kind === 'circle'
        ? { ...a.shape }
        : { kind: 'polygon', points: a.shape.points.map(([lat, lon]) => [lat, lon]) },
    refreshMinutes: a.refreshMinutes,
    paused: a.paused,
    createdAt: a.createdAt,
    lastSyncedAt: a.lastSyncedAt,
    backfilledAt: a.backfilledAt,
    lastRun: run
      ? {
          runId: run.id,
          kind: run.kind,
          state: run.state,
          startedAt: run.started_at,
          finishedAt: run.finished_at,
          requests: run.requests,
          new: run.new_count,
          updated: run.updated_count,
          removed: run.removed_count,
          error: run.error,
          surface: runSurface ?? 'live',
        }
      : null,
    syncing: service.isRunning(a.id),
    ...surfaces,
  };
}
