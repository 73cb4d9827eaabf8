/**
 * Where the figures of an export or report come from, in the terms a reader needs to judge them:
 * each area in scope with when it was last synced and the days its archive misses within the
 * range, the plan and its data window, and plain notes (addresses are block-level; recent days are
 * provisional; the API forgets what the archive keeps). Built from the store and the query
 * engine's coverage band; the same for manifests (export/manifest.ts) and the printed report.
 */
import type { Provenance } from '../../../src-shared/exports';
import type { DayRange, Filters } from '../../../src-shared/filters';
import { planLimits } from '../../../src-shared/plans';
import type { EngineCore } from '../core';
import { yieldToEventLoop } from '../eventLoop';
import { incidentCalls, type QueryService } from '../query/index';
import { createAreaStore, type AreaRecord } from '../areas/areaStore';
import { boxesOverlap, shapeBox, type Box } from '../../../src-shared/geo';

export const NOTES = {
  blockLevel:
    'Addresses are block-level, as the API publishes them: they place an incident on a block, not at a building.',
  localTime:
    'Times are local to each incident (its IANA time zone); hour and weekday figures use local time.',
  archiveOnly:
    'Incidents without a sync ledger (for example imported files) are counted as the archive holds them.',
  gaps: 'Some days are missing from the archive for an area (listed as gaps): counts over those days are lower than what happened.',
};

export const provisionalNote = (days: number): string =>
  `The most recent ${days} days are provisional: incidents are still being reported, so their counts may rise.`;

export const windowNote = (label: string, days: number): string =>
  `The ${label} plan serves only the last ${days} days; older incidents come from this local archive, which keeps them after the API drops them.`;

/** The saved areas a filter speaks about: the chosen one, those a drawn shape reaches, or all. */
export function areasInScope(ctx: Pick<EngineCore, 'db'>, filters: Filters, box: Box | null): AreaRecord[] {
  const all = createAreaStore(ctx.db).list();
  const area = filters.area;
  if (area && 'areaId' in area) return all.filter((a) => a.id === area.areaId);
  return box ? all.filter((a) => boxesOverlap(shapeBox(a.shape), box)) : all;
}

export async function provenanceOf(
  ctx: Pick<EngineCore, 'db' | 'settings'>,
  service: QueryService,
  filters: Filters,
  range: DayRange,
  box: Box | null,
): Promise<Provenance> {
  const areas = areasInScope(ctx, filters, box);
  let ledgered = false;
  const out: Provenance['areas'] = [];
  for (const a of areas) {
    // Each area's band reads the archive's days and the area's ledger (~10–20 ms at 1M): a turn
    // of the event loop between them (issue 31).
    await yieldToEventLoop();
    const band = await incidentCalls.coverageBand(service, {
      areaId: a.id,
      ...(range.from ? { from: range.from } : {}),
      ...(range.to ? { to: range.to } : {}),
    });
    if (band.basis === 'ledger' && band.runs.length > 0) ledgered = true;
    out.push({
      id: a.id,
      name: a.name,
      lastSyncedAt: a.lastSyncedAt,
      backfilledAt: a.backfilledAt,
      gaps: band.runs.filter((r) => r.status === 'missing').map(({ from, to }) => ({ from, to })),
      missingDays: band.totals.missing,
      provisionalDays: band.totals.provisional,
    });
  }
  const settings = ctx.settings.get();
  const plan = planLimits(settings.plan, settings);
  const notes = [
    NOTES.blockLevel,
    provisionalNote(service.provisionalDays),
    windowNote(plan.label, plan.windowDays),
    NOTES.localTime,
  ];
  if (out.some((a) => a.gaps.length > 0)) notes.push(NOTES.gaps);
  if (!ledgered) notes.push(NOTES.archiveOnly);
  return {
    areas: out,
    coverageBasis: ledgered ? 'ledger' : 'archive',
    range,
    plan: { id: settings.plan, label: plan.label, windowDays: plan.windowDays },
    notes,
  };
}
