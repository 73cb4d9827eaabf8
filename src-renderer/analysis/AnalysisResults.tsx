/**
 * An analysis result in the Analysis view's work area (issue 26, item 5): a map result (hot spots,
 * density, repeat locations) on a map that fills the area, its legend and parameters floating over
 * it; the tables (repeat locations beside the map, Knox, CompStat) scroll in their own pane. A Gi*
 * cell or a repeat location opens its incidents in the Table with a filter that names it and
 * narrows the filters in force (`focus`): the area stays. A significant Knox cell lists its pairs.
 */
import { useCallback, useMemo, useState } from 'react';
import type {
  CompStatOutput,
  HotSpotsOutput,
  KdeOutput,
  KnoxCellOut,
  NearRepeatOutput,
  RepeatGroupOut,
  RepeatLocationsOutput,
} from '../../src-shared/analysis';
import type { Filters } from '../../src-shared/filters';
import { AnalysisMap, type AnalysisLayer } from './AnalysisMap';
import type { AnalysisResult } from './analysisSession';
import { CompStatTable } from './CompStatTable';
import { KnoxPairs } from './KnoxPairs';
import { KnoxTable } from './KnoxTable';
import { HotSpotLegend, KdeLegend } from './Legends';
import { RepeatList } from './RepeatList';
import { ResultPanel } from './ResultPanel';
import styles from './analysis.module.css';

function layerOf(result: AnalysisResult): AnalysisLayer | null {
  if (result.call === 'analyzeHotSpots')
    return { kind: 'hotspots', geojson: (result.value as HotSpotsOutput).geojson };
  if (result.call === 'analyzeKde') {
    const v = result.value as KdeOutput;
    return v.raster ? { kind: 'kde', raster: v.raster, max: v.max } : null;
  }
  if (result.call === 'analyzeRepeatLocations')
    return { kind: 'repeats', groups: (result.value as RepeatLocationsOutput).groups };
  return null;
}

export function AnalysisResults({
  result,
  stale,
  onRerun,
  update,
}: {
  result: AnalysisResult;
  stale: boolean;
  onRerun: () => void;
  update: (patch: Partial<Filters>) => void;
}) {
  const [pairsOf, setPairsOf] = useState<KnoxCellOut | null>(null);
  const showIncidents = useCallback(
    (focus: NonNullable<Filters['focus']>) => {
      update({ focus });
      window.location.hash = '#/table';
    },
    [update],
  );
  const onCell = useCallback(
    (polygon: [number, number][], label: string) => showIncidents({ label, polygon }),
    [showIncidents],
  );
  const onPlace = useCallback(
    (g: RepeatGroupOut) => showIncidents({ label: g.address || 'Repeat location', cdids: g.cdids }),
    [showIncidents],
  );
  const layer = useMemo(() => layerOf(result), [result]);
  const binCounts = useMemo(() => {
    const counts: Record<number, number> = {};
    if (layer?.kind === 'hotspots')
      for (const f of layer.geojson.features) {
        const b = Number(f.properties.bin ?? 0);
        counts[b] = (counts[b] ?? 0) + 1;
      }
    return counts;
  }, [layer]);

  const panel = (floating: boolean) => (
    <ResultPanel
      result={result}
      stale={stale}
      onRerun={onRerun}
      floating={floating}
      legend={
        layer?.kind === 'hotspots' ? (
          <HotSpotLegend counts={binCounts} />
        ) : layer?.kind === 'kde' ? (
          <KdeLegend max={layer.max} />
        ) : null
      }
      hint={
        layer?.kind === 'hotspots'
          ? 'Click a cell to see its incidents in the table (the area filter stays).'
          : layer?.kind === 'repeats'
            ? 'Click a place to see its incidents in the table.'
            : undefined
      }
    />
  );

  if (layer) {
    return (
      <div
        className={layer.kind === 'repeats' ? styles.stageWithList : styles.stage}
        data-testid="analysis-stage"
      >
        <div className={styles.mapBox}>
          <AnalysisMap layer={layer} onCell={onCell} onPlace={onPlace} />
          {panel(true)}
        </div>
        {result.call === 'analyzeRepeatLocations' ? (
          <div className={styles.sidePane}>
            <RepeatList result={result.value as RepeatLocationsOutput} onShow={onPlace} />
          </div>
        ) : null}
      </div>
    );
  }
  const knox = result.call === 'analyzeNearRepeat' ? (result.value as NearRepeatOutput) : null;
  return (
    <div className={styles.tablePane} data-testid="analysis-stage">
      {panel(false)}
      {knox ? <KnoxTable result={knox} onPairs={setPairsOf} /> : null}
      {knox && pairsOf ? (
        <KnoxPairs
          key={`${pairsOf.space.join()}-${pairsOf.time.join()}`}
          cell={pairsOf}
          unit={String(knox.parameters.space_unit ?? 'm')}
          onClose={() => setPairsOf(null)}
        />
      ) : null}
      {result.call === 'analyzeCompStat' ? <CompStatTable result={result.value as CompStatOutput} /> : null}
    </div>
  );
}
