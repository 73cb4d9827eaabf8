/**
 * `sync`: backfill and refresh the given areas once, through the engine's contract calls like any
 * host: the connection flags become the data folder's settings (updateSettings; --base-url is the
 * CLI's confirmation that the key may go there), each --area is found or created (listAreas,
 * createArea), the plan is printed (planSync), then one `runSync` call syncs and answers each run's
 * figures while syncProgress events become stderr lines. The last stdout line is the JSON summary;
 * exit 0 when every area is complete.
 */
import type { CallInput, EngineEvent } from '../../src-shared/contract';
import type { Shape } from '../../src-shared/geo';
import { PLANS, type PlanId } from '../../src-shared/plans';
import type { AreaView } from '../../src-shared/sync';
import { one, parseArea, parseBaseUrl, parsePlan, parsePositiveInt, UsageError, type Parsed } from './args';
import { CallFailure, cliWords, exitCodeOf } from './failure';
import { alertsOfRuns } from './alertsCommand';
import { EXIT, type Io } from './io';
import { clockTime, progressPrinter } from './progressLine';
import { withSession, type Session } from './session';

export const SYNC_FLAGS = {
  values: ['data-dir', 'base-url', 'plan', 'rate', 'window-days', 'area'],
  booleans: ['details', 'history', 'help'],
};

type Circle = Extract<Shape, { kind: 'circle' }>;

export async function syncCommand(p: Parsed, io: Io): Promise<number> {
  const started = Date.now();
  const baseUrlText = one(p, 'base-url');
  const baseUrl = baseUrlText === undefined ? undefined : parseBaseUrl(baseUrlText);
  const planText = one(p, 'plan');
  const plan = planText === undefined ? undefined : parsePlan(planText);
  const rateText = one(p, 'rate');
  const windowText = one(p, 'window-days');
  const rate = rateText === undefined ? undefined : parsePositiveInt('rate', rateText, 100_000);
  const windowDays = windowText === undefined ? undefined : parsePositiveInt('window-days', windowText, 3650);
  const shapes = (p.values.get('area') ?? []).map((t) => parseArea(t));
  if (shapes.length === 0) throw new UsageError('Give at least one --area "LAT,LON,RADIUS_MI".');

  return withSession(io, one(p, 'data-dir'), async (s) => {
    await connect(s, { baseUrl, plan, rate, windowDays });
    if (!io.env.BLOTTER_API_KEY?.trim()) await requireStoredKey(s);
    const areas = await findOrCreate(s, shapes);
    const areaIds = areas.map((a) => a.id);
    const limits = (await s.call('getSettings', {})).effective;
    const history = p.flags.has('history');
    if (history) {
      // The opt-in 36-month backfill on v1: its request count first, or why it cannot run.
      const h = await s.call('planHistory', { areaIds });
      for (const a of h.areas) {
        io.err(
          `${clockTime(Date.now())} plan: area ${a.areaId} history (${h.months} months on v1), at most about ${a.requests} requests ` +
            `(${a.minutes.toFixed(1)} min at ${limits.ratePerMinute}/min)\n`,
        );
      }
      if (!h.available) {
        io.err(`blotter: no history backfill: ${h.reason}\n`);
        return EXIT.failed;
      }
    }
    const planned = history ? { areas: [] } : await s.call('planSync', { areaIds });
    for (const a of planned.areas) {
      io.err(
        `${clockTime(Date.now())} plan: area ${a.areaId} ${a.kind}, ${a.tiles} tiles, ${a.basis === 'minimum' ? 'at least ' : 'about '}${a.requests} requests ` +
          `(${a.minutes.toFixed(1)} min at ${limits.ratePerMinute}/min)\n`,
      );
    }

    const printer = progressPrinter((line) => io.err(line));
    const unsubscribe = s.onEvent((e: EngineEvent) => {
      if (e.type === 'syncProgress' && areaIds.includes(e.areaId)) printer(e);
    });
    let interrupted = false;
    const onSignal = (): void => {
      interrupted = true;
      void s.call('stopSync', { areaIds }).catch(() => undefined);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let outcome;
    try {
      outcome = await s.call('runSync', {
        areaIds,
        details: p.flags.has('details'),
        ...(history ? { history: true } : {}),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      unsubscribe();
    }

    const runs = outcome.runs;
    const sum = (f: (r: (typeof runs)[number]) => number): number => runs.reduce((n, r) => n + f(r), 0);
    const failed = runs.find((r) => r.state === 'failed');
    const incomplete = runs.flatMap((r) => r.incomplete);
    const complete =
      runs.length === areas.length && runs.every((r) => r.state === 'done') && incomplete.length === 0;
    const result = {
      requests: outcome.requests,
      incidents: await incidentsInside(s, areaIds),
      new: sum((r) => r.new),
      updated: sum((r) => r.updated),
      removed: sum((r) => r.removed),
      rateLimited: outcome.rateLimited,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      lowerBoundRequests: sum((r) => r.lowerBound ?? 0),
      // ceil(N / 500) for the incidents inside the union of the areas after the runs' since (keys only added).
      fairLowerBound: outcome.fairLowerBound ?? sum((r) => r.fairLowerBound ?? 0),
      complete,
      // The alerts these runs raised (written in their commits), per rule: keys only added.
      alerts: await alertsOfRuns(
        s,
        runs.map((r) => r.runId),
      ),
      ...(failed?.error
        ? { error: failed.error.message }
        : incomplete.length > 0
          ? { error: incomplete[0] }
          : {}),
    };
    io.out(JSON.stringify(result) + '\n');
    if (interrupted) {
      io.err('blotter: sync interrupted; run it again to resume where it stopped.\n');
      return EXIT.interrupted;
    }
    if (failed?.error) {
      io.err(`blotter: ${cliWords(failed.error.code, failed.error.message)}\n`);
      return exitCodeOf(failed.error.code) === EXIT.usage ? EXIT.failed : exitCodeOf(failed.error.code);
    }
    if (!complete) {
      io.err(
        `blotter: finished, but not everything could be proven complete: ${incomplete[0] ?? 'unknown reason'}\n`,
      );
      return EXIT.incomplete;
    }
    return EXIT.ok;
  });
}

type ConnectionFlags = { baseUrl?: string; plan?: PlanId; rate?: number; windowDays?: number };

/**
 * The flags become the folder's settings, as the app's Settings would store them; a folder that
 * has them already needs no flags. --base-url confirms that the key may go to that address.
 */
async function connect(s: Session, flags: ConnectionFlags): Promise<void> {
  const current = await s.call('getSettings', {});
  const plan = flags.plan ?? current.plan;
  if ((flags.rate !== undefined || flags.windowDays !== undefined) && plan !== 'enterprise') {
    const fixed = PLANS[plan];
    throw new UsageError(
      `--rate and --window-days are an Enterprise contract's own figures; the ${plan} plan's are fixed (${fixed.ratePerMinute} a minute, ${fixed.windowDays} days).`,
    );
  }
  if (flags.baseUrl === undefined && current.baseUrl === null)
    throw new UsageError('--base-url is required (this data folder has no base URL yet).');
  const patch: CallInput<'updateSettings'> = {};
  if (flags.baseUrl !== undefined && flags.baseUrl !== current.baseUrl) patch.baseUrl = flags.baseUrl;
  if (plan !== current.plan) patch.plan = plan;
  if (flags.rate !== undefined && flags.rate !== current.ratePerMinute) patch.ratePerMinute = flags.rate;
  if (flags.windowDays !== undefined && flags.windowDays !== current.windowDays)
    patch.windowDays = flags.windowDays;
  if (Object.keys(patch).length > 0) await s.call('updateSettings', patch);
  if (flags.baseUrl !== undefined) await s.call('confirmBaseUrl', { baseUrl: flags.baseUrl });
}

/** Without BLOTTER_API_KEY, a key stored for the folder, said before any plan is printed. */
async function requireStoredKey(s: Session): Promise<void> {
  const status = await s.call('getKeyStatus', {});
  if (!status.keychain.available)
    throw new CallFailure('keychain_unavailable', `${status.keychain.problem} ${status.keychain.fix}`);
  if (!status.keySet) throw new CallFailure('no_api_key', 'No API key is set.');
}

/**
 * Each circle's stored area (an --area seen before), or a new one named after its figures. In
 * office mode the areas are the office's, and another desktop may have drawn this one since this
 * replica last pulled: the replica pulls first, and when the office refuses a second area of the
 * same shape (a desktop made it meanwhile) it pulls again and takes that one.
 */
async function findOrCreate(s: Session, shapes: Circle[]): Promise<AreaView[]> {
  const office = (await s.call('getOfficeStatus', {})).joined;
  if (office) await s.call('pullOffice', {});
  let { areas } = await s.call('listAreas', {});
  const find = (c: Circle) =>
    areas.find(
      (a) =>
        a.shape.kind === 'circle' &&
        a.shape.lat === c.lat &&
        a.shape.lon === c.lon &&
        a.shape.radiusMi === c.radiusMi,
    );
  const out: AreaView[] = [];
  for (const c of shapes) {
    let area = find(c);
    if (!area) {
      try {
        area = await s.call('createArea', { name: `${c.lat},${c.lon},${c.radiusMi}`, shape: { ...c } });
      } catch (e) {
        if (!(office && e instanceof CallFailure && e.code === 'conflict')) throw e;
        await s.call('pullOffice', {});
        ({ areas } = await s.call('listAreas', {}));
        area = find(c);
        if (!area) throw e;
      }
    }
    out.push(area);
  }
  return out;
}

/** Incidents stored (not removed) inside any of the areas: the union of each area's matches. */
async function incidentsInside(s: Session, areaIds: number[]): Promise<number> {
  if (areaIds.length === 1) {
    return (await s.call('countIncidents', { filters: { area: { areaId: areaIds[0] as number } } })).total;
  }
  const seen = new Set<number>();
  for (const areaId of areaIds) {
    const points = await s.call('getMapPoints', { filters: { area: { areaId } } });
    for (const cdid of points.cdid) seen.add(cdid);
  }
  return seen.size;
}
