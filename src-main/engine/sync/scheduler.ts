/**
 * The background refresh: every unpaused area that has been synced before is refreshed once its
 * refresh interval (default 15 minutes) has passed since its last sync — or since the last scheduled
 * attempt, so a refresh that failed (offline, say) waits a whole interval before the next try. Areas
 * never synced wait for their first sync, which the user starts after seeing what it will cost.
 * The engine starts the scheduler for the app hosts (electron, web), never for the CLI (engine.ts).
 */
import type { Logger } from '../log';
import type { AreaRecord, AreaStore } from '../areas/areaStore';

export type SchedulerOptions = {
  /** How often due areas are looked for. */
  checkEveryMs?: number;
  /** The first look, soon after start (areas that fell due while Blotter was closed). */
  firstCheckMs?: number;
};

export type SchedulerDeps = {
  areas: AreaStore;
  isRunning(areaId: number): boolean;
  /** Starts syncing these areas in the background. */
  start(areaIds: number[]): Promise<unknown>;
  now(): number;
  log: Logger;
  /**
   * Before each look (office mode: the replica's pull, so areas drawn elsewhere and the leaders'
   * sync times are known here — an area another desktop just refreshed is not due).
   */
  beforeCheck?(): Promise<void>;
};

export function createRefreshScheduler(deps: SchedulerDeps) {
  const attempted = new Map<number, number>();
  let timers: NodeJS.Timeout[] = [];
  let stopped = false;

  function due(): AreaRecord[] {
    const now = deps.now();
    return deps.areas.list().filter((a) => {
      if (a.paused || a.lastSyncedAt === null || deps.isRunning(a.id)) return false;
      const last = Math.max(a.lastSyncedAt, attempted.get(a.id) ?? -Infinity);
      return now - last >= a.refreshMinutes * 60_000;
    });
  }

  function check(): void {
    if (!deps.beforeCheck) return look();
    deps
      .beforeCheck()
      .catch((error: unknown) => deps.log.info('office pull before the refresh check failed', { error }))
      .finally(() => {
        if (!stopped) look();
      });
  }

  function look(): void {
    const list = due();
    if (list.length === 0) return;
    for (const a of list) attempted.set(a.id, deps.now());
    deps
      .start(list.map((a) => a.id))
      .catch((error: unknown) => deps.log.info('scheduled sync not started', { error }));
  }

  return {
    /** The areas a check would refresh now. */
    due,
    /** Whether checks are scheduled. */
    active: (): boolean => timers.length > 0,
    start(options: SchedulerOptions = {}): void {
      if (timers.length > 0 || stopped) return;
      const first = setTimeout(check, options.firstCheckMs ?? 5_000);
      const every = setInterval(check, options.checkEveryMs ?? 60_000);
      first.unref();
      every.unref();
      timers = [first, every];
    },
    stop(): void {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers = [];
    },
  };
}
