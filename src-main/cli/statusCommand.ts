/**
 * `status`: what the data folder holds — the connection settings, the archive's totals, and per
 * area its shape, the incidents inside it, the coverage ledger and the last sync — all from
 * contract calls (getSettings, getArchiveSummary, listAreas, countIncidents, coverageBand), so it
 * says what the app's views say.
 */
import type { AreaView } from '../../src-shared/sync';
import { one, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

export const STATUS_FLAGS = { values: ['data-dir'], booleans: ['help'] };

export const when = (ms: number | null): string =>
  ms === null ? 'never' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

export function describeShape(shape: AreaView['shape']): string {
  if (shape.kind === 'circle') return `circle around ${shape.lat},${shape.lon}, ${shape.radiusMi} mi`;
  return `polygon of ${shape.points.length} points`;
}

export async function statusCommand(p: Parsed, io: Io): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const settings = await s.call('getSettings', {});
    const archive = await s.call('getArchiveSummary', {});
    const lines = [
      `Data folder: ${s.dataDir}`,
      `Service: ${settings.baseUrl ?? 'no base URL set'}; plan ${settings.plan} (${settings.effective.ratePerMinute} requests a minute, ${settings.effective.windowDays} days)`,
      `Incidents: ${archive.total} stored (${archive.removed} marked removed)` +
        (archive.firstDay ? `, days ${archive.firstDay} to ${archive.lastDay}` : ''),
    ];
    const { areas } = await s.call('listAreas', {});
    if (areas.length === 0) lines.push('Areas: none yet (sync --area "LAT,LON,RADIUS_MI" adds one).');
    for (const a of areas) lines.push(...(await areaLines(s, a)));
    io.out(lines.join('\n') + '\n');
    return EXIT.ok;
  });
}

async function areaLines(s: Session, a: AreaView): Promise<string[]> {
  const area = { areaId: a.id };
  const live = (await s.call('countIncidents', { filters: { area } })).total;
  const all = (await s.call('countIncidents', { filters: { area, includeRemoved: true } })).total;
  const cov = await s.call('coverageBand', { areaId: a.id });
  const t = cov.totals;
  const run = a.lastRun;
  return [
    `Area ${a.id} "${a.name}": ${describeShape(a.shape)}; refresh every ${a.refreshMinutes} min${a.paused ? '; paused' : ''}`,
    `  incidents inside: ${live} (plus ${all - live} removed)`,
    cov.basis !== 'ledger' || t.complete + t.saturated + t.provisional === 0
      ? '  coverage: nothing proven yet'
      : `  coverage: ${t.complete} days complete, ${t.saturated} split, ${t.provisional} provisional, ${t.missing} missing; days ${cov.from} to ${cov.to}`,
    run
      ? `  last sync: ${when(run.startedAt)} ${run.kind}${run.surface && run.surface !== 'live' ? ` on ${run.surface}` : ''}, ${run.state}${run.finishedAt ? ` at ${when(run.finishedAt)}` : ''}: ` +
        `${run.requests} requests, ${run.new} new, ${run.updated} updated, ${run.removed} removed` +
        `${run.error ? ` — ${run.error}` : ''}`
      : '  last sync: never',
    ...surfaceLines(a),
  ];
}

/** Which surface the area's syncs use and why; v1's score and trends when the service sent them. */
export function surfaceLines(a: AreaView): string[] {
  const out: string[] = [];
  const s = a.surface;
  out.push(
    s
      ? `  surface: ${s.using}${s.using === 'live' ? ' (v1 not used)' : ''} — ${s.reason} (probed ${when(s.probedAt)})`
      : '  surface: live (the v1 surface has not been probed yet)',
  );
  const score = a.score?.score;
  if (score) {
    out.push(
      `  v1 score: ${score.score} (${score.grade}) within ${score.radiusMi} mi, updated ${score.updatedAt}; ` +
        `violent ${score.breakdown.violent}, property ${score.breakdown.property}, quality of life ${score.breakdown.qualityOfLife}`,
    );
  }
  const trends = a.score?.trends;
  if (trends && trends.buckets.length > 0) {
    out.push(`  v1 trend (per ${trends.interval}): ${trends.buckets.map((b) => b.count).join(', ')}`);
  }
  return out;
}
