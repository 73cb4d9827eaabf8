/**
 * `sync`: backfill and refresh the given areas once, through the same sync engine as the app.
 * Progress on stderr; the last stdout line is the JSON summary. Exit 0 when every area is complete.
 */
import { PLANS } from '../../src-shared/plans';
import { createNodeFetch } from '../engine/api/nodeFetch';
import { contains, shapeBox, type Shape } from '../../src-shared/geo';
import { createLogger } from '../engine/log';
import type { Db } from '../engine/store/database';
import { createSettingsRepo } from '../engine/store/settingsRepo';
import type { AreaRecord } from '../engine/sync/areaStore';
import { createSyncService, type Connection } from '../engine/sync/syncService';
import { one, parseArea, parseBaseUrl, parsePlan, parsePositiveInt, UsageError, type Parsed } from './args';
import { openDataFolder } from './dataFolder';
import { EXIT, type Io } from './io';
import { resolveApiKey } from './key';
import { clockTime, progressPrinter } from './progressLine';

export const SYNC_FLAGS = {
  values: ['data-dir', 'base-url', 'plan', 'rate', 'window-days', 'area'],
  booleans: ['details', 'help'],
};

export async function syncCommand(p: Parsed, io: Io): Promise<number> {
  const started = Date.now();
  const baseUrl = parseBaseUrl(one(p, 'base-url', true));
  const plan = parsePlan(one(p, 'plan', true));
  const rateText = one(p, 'rate');
  const windowText = one(p, 'window-days');
  const shapes = (p.values.get('area') ?? []).map(parseArea);
  if (shapes.length === 0) throw new UsageError('Give at least one --area "LAT,LON,RADIUS_MI".');
  const limits = {
    ratePerMinute: rateText ? parsePositiveInt('rate', rateText, 100_000) : PLANS[plan].ratePerMinute,
    windowDays: windowText ? parsePositiveInt('window-days', windowText, 3650) : PLANS[plan].windowDays,
  };

  const { db } = openDataFolder(io, one(p, 'data-dir'));
  try {
    const key = await resolveApiKey(io.env, createSettingsRepo(db).profileId());
    const conn: Connection = { baseUrl, key, limits, fetch: await createNodeFetch(io.env) };
    const printer = progressPrinter((line) => io.err(line));
    const service = createSyncService({
      db,
      log: createLogger('sync'),
      emit: printer,
      connect: async () => conn,
    });
    const areas = shapes.map(
      (s) =>
        service.areas.findCircle(s.lat, s.lon, s.radiusMi) ??
        service.areas.create({ name: `${s.lat},${s.lon},${s.radiusMi}`, shape: s }, Date.now()),
    );
    const plan = service.plan(
      areas.map((a) => a.id),
      limits,
      'deep',
    );
    for (const a of plan.areas) {
      io.err(
        `${clockTime(Date.now())} plan: area ${a.areaId} ${a.kind}, ${a.tiles} tiles, ${a.basis === 'minimum' ? 'at least ' : 'about '}${a.requests} requests ` +
          `(${a.minutes.toFixed(1)} min at ${limits.ratePerMinute}/min)\n`,
      );
    }
    const stop = new AbortController();
    const onSignal = (): void => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const summaries = await service.syncAreas(areas, conn, {
      depth: 'deep',
      details: p.flags.has('details'),
      signal: stop.signal,
    });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);

    const stats = service.stats();
    const sum = (f: (s: (typeof summaries)[number]) => number): number =>
      summaries.reduce((n, s) => n + f(s), 0);
    const failed = summaries.find((s) => s.state === 'failed');
    const incomplete = summaries.flatMap((s) => s.incomplete);
    const complete =
      summaries.length === areas.length &&
      summaries.every((s) => s.state === 'done') &&
      incomplete.length === 0;
    const result = {
      requests: stats.requests,
      incidents: countInside(db, areas),
      new: sum((s) => s.new),
      updated: sum((s) => s.updated),
      removed: sum((s) => s.removed),
      rateLimited: stats.rateLimited,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      lowerBoundRequests: sum((s) => s.lowerBound ?? 0),
      complete,
      ...(failed?.error
        ? { error: failed.error.message }
        : incomplete.length > 0
          ? { error: incomplete[0] }
          : {}),
    };
    io.out(JSON.stringify(result) + '\n');
    if (stop.signal.aborted) {
      io.err('blotter: sync interrupted; run it again to resume where it stopped.\n');
      return EXIT.interrupted;
    }
    if (failed?.error) {
      io.err(`blotter: ${failed.error.message}\n`);
      if (failed.error.code === 'unauthorized') return EXIT.unauthorized;
      if (failed.error.code === 'ip_not_allowed') return EXIT.ipNotAllowed;
      if (failed.error.code === 'already_syncing') return EXIT.alreadySyncing;
      return EXIT.failed;
    }
    if (!complete) {
      io.err(
        `blotter: finished, but not everything could be proven complete: ${incomplete[0] ?? 'unknown reason'}\n`,
      );
      return EXIT.incomplete;
    }
    return EXIT.ok;
  } finally {
    db.close();
  }
}

/** Incidents stored (not removed) inside any of the areas. */
function countInside(db: Db, areas: AreaRecord[]): number {
  const seen = new Set<number>();
  const stmt = db.prepare<[number, number, number, number], { cdid: number; lat: number; lon: number }>(
    `SELECT i.cdid, i.lat, i.lon FROM incidents_rtree r JOIN incidents i ON i.cdid = r.cdid
     WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lon >= ? AND r.max_lon <= ? AND i.removed_at IS NULL`,
  );
  for (const a of areas) {
    const b = shapeBox(a.shape as Shape);
    for (const r of stmt.iterate(b.minLat, b.maxLat, b.minLon, b.maxLon))
      if (contains(a.shape, r.lat, r.lon)) seen.add(r.cdid);
  }
  return seen.size;
}
