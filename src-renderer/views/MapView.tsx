/**
 * Map: the filtered incidents of the local archive on a map that works offline — clusters from a
 * worker, a heat layer, a legend with counts per type, saved areas as outlines, and the incident
 * panel on click. Layers and drawing live in ../map (see its README).
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useFilters } from '../filters/FiltersContext';
import { IncidentPanel } from '../incident/IncidentPanel';
import { LayersPanel } from '../layers/LayersPanel';
import { addAreaOutlines, shapesBounds } from '../map/areaOutlines';
import { mapTheme } from '../map/basemap/theme';
import { useBasemap } from '../map/basemap/useBasemap';
import type { ClusterBatch } from '../map/clusterIndex';
import type { Pick } from '../map/ClusterLayer';
import { zoomToCluster } from '../map/clusterZoom';
import { Legend } from '../map/Legend';
import { isShown, toggleType } from '../map/legendToggle';
import { MapToolbar, type Layers } from '../map/MapToolbar';
import { PlaybackControl, type PlaybackFrame } from '../map/playback/PlaybackControl';
import { frameEntries } from '../map/playback/playbackModel';
import { coloursFor, legendEntries } from '../map/palette';
import { perf, record } from '../map/perf';
import { SpotList, type Spot } from '../map/SpotList';
import { useAfterDelay } from '../map/useAfterDelay';
import { useArchiveEmpty } from '../map/useArchiveEmpty';
import { useClusterLayers } from '../map/useClusterLayers';
import { useLeafletMap } from '../map/useLeafletMap';
import { useLegendCounts } from '../map/useLegendCounts';
import { useMapPoints } from '../map/useMapPoints';
import { useInViewWatch } from '../map/inViewWatch';
import { useSmallMap } from '../map/useSmallMap';
import { useMapSketch } from '../map/useMapSketch';
import { useMapTestHook } from '../map/mapTestHook';
import { useSavedMapView } from '../map/useSavedMapView';
import { useScaleBar } from '../map/scaleBar';
import { useSelectionRing } from '../map/selectionRing';
import { useSelection } from '../selection/SelectionContext';
import type { MapStart } from '../map/mapSetup';
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';
import styles from '../map/map.module.css';

// Room for the layer switches (top) and the legend (right) when fitting the first view.
const FIT = {
  paddingTopLeft: [24, 56] as [number, number],
  paddingBottomRight: [260, 24] as [number, number],
};

export function MapView({ setup, initialView = null }: DataViewProps & { initialView?: MapStart }) {
  const theme = useMemo(mapTheme, []);
  const { client, areas } = useWorkspace();
  const { filters, update, dataVersion } = useFilters();
  // The last session's view (settings.mapView); kept as the map moves.
  const { ref, map } = useLeafletMap(theme.water, initialView);
  useSavedMapView(map, client);
  const small = useSmallMap(map);
  useScaleBar(map);
  const [layers, setLayers] = useState<Layers>({ clusters: true, heat: false, labels: true, streets: true });
  // The selected incident (shared with the Table): ringed on the map, shown in the panel.
  const { selected, select } = useSelection();
  const openCdid = selected?.cdid ?? null;
  const [spot, setSpot] = useState<Spot | null>(null);
  const [inView, setInView] = useState<Record<string, number> | null>(null);
  // While time playback is open, the legend's "In view" is the period's (null: closed).
  const [periodInView, setPeriodInView] = useState<Record<string, number> | null>(null);
  // …and its counts are the period's (the frame shown), not the whole filter's.
  const [frame, setFrame] = useState<PlaybackFrame | null>(null);
  const [draws, setDraws] = useState(0);
  const redrawFrom = useRef<number | null>(null);
  const fitted = useRef(initialView !== null);
  const typesRef = useRef<string[]>([]);

  // The legend's "in view" counts, as a low-priority update (the map is drawn already).
  const onCounts = useCallback((batch: ClusterBatch) => {
    const types = typesRef.current;
    const next: Record<string, number> = {};
    types.forEach((t, i) => (next[t] = (next[t] ?? 0) + (batch.inView[i] ?? 0)));
    startTransition(() => setInView(next));
  }, []);
  // After each cluster draw: the counts, and one more draw.
  const onDrawn = useCallback(
    (batch: ClusterBatch) => {
      onCounts(batch);
      startTransition(() => setDraws((d) => d + 1));
    },
    [onCounts],
  );

  const { cluster, clusters, heat } = useClusterLayers(map, theme, (p) => void pick(p), onDrawn);
  const points = useMapPoints(client, cluster, filters, dataVersion);
  // The first paint, before the points and the index: the engine's coarse grid of the filters'
  // incidents (also says whether the answers are from a saved snapshot still being brought up to date).
  const sketch = useMapSketch(client, map, clusters, filters, dataVersion, points.info !== null);
  const counts = useLegendCounts(client, filters, dataVersion);
  const empty = useArchiveEmpty(client, dataVersion);
  // Place names wait for the first clusters (the incidents come first on launch), or 3 s at most.
  const labelsDue = useAfterDelay(3000);
  const basemap = useBasemap(map, client, theme, {
    labels: layers.labels,
    streets: layers.streets,
    holdLabels: !labelsDue && draws === 0 && layers.clusters && !points.error && empty !== true,
  });

  useSelectionRing(map, client, selected, theme.selection, theme.marks.halo);

  async function pick(p: Pick): Promise<void> {
    if (!map || !cluster) return;
    // A cluster: zoom to where all its incidents are (unless they share one spot: list them).
    if (p.id >= 0 && (await zoomToCluster(map, cluster, p.id, p.count, FIT))) return;
    const list = await cluster.incidents(p.id, 200);
    if (!list) return;
    const types = typesRef.current;
    const rows = Array.from(list.cdid, (cdid, i) => ({
      cdid,
      type: types[list.typeIndex[i] as number] ?? 'Other',
    }));
    if (list.total === 1 && rows[0]) {
      setSpot(null);
      select({ cdid: rows[0].cdid, lat: p.lat, lon: p.lon });
    } else setSpot({ total: list.total, rows, lat: p.lat, lon: p.lon });
  }

  // New points in the worker: redraw clusters (and heat) with the types' colours.
  const info = points.info;
  useEffect(() => {
    if (!info || !clusters) return;
    typesRef.current = info.types;
    clusters.refresh(coloursFor(info.types));
    if (redrawFrom.current !== null) {
      record(perf().mapRedrawn, performance.now() - redrawFrom.current);
      redrawFrom.current = null;
    }
  }, [info, clusters]);

  useEffect(() => {
    if (!map || !clusters) return;
    if (layers.clusters) clusters.addTo(map);
    else clusters.remove();
  }, [map, clusters, layers.clusters]);

  // With the clusters off nothing draws them, so the "in view" counts are asked for after each move.
  useInViewWatch(map, cluster, !layers.clusters && info !== null, onCounts);

  useEffect(() => {
    if (!map || !heat) return;
    if (layers.heat) {
      heat.addTo(map);
      if (info) heat.refresh();
    } else heat.remove();
  }, [map, heat, layers.heat, info]);

  // Saved areas as outlines; the first view fits them, or else the data.
  const shapes = useMemo(() => (areas ?? []).map((a) => a.shape), [areas]);
  useEffect(
    () => (map && shapes.length ? addAreaOutlines(map, shapes, theme.label) : undefined),
    [map, shapes, theme],
  );
  useEffect(() => {
    if (!map || fitted.current || areas === null) return;
    const bounds = shapesBounds(shapes);
    if (bounds) {
      fitted.current = true;
      map.fitBounds(bounds, { ...FIT, animate: false });
    } else if (info?.bounds) {
      fitted.current = true;
      const [w, s, e, n] = info.bounds;
      map.fitBounds(
        [
          [s, w],
          [n, e],
        ],
        { ...FIT, maxZoom: 14, animate: false },
      );
    }
  }, [map, areas, shapes, info]);

  useMapTestHook(map);

  const entries = legendEntries(counts.byType ?? {}, true);
  const allTypes = entries.map((e) => e.type);
  const onToggle = (type: string) => {
    const now = performance.now();
    perf().filterChangedAt = now;
    redrawFrom.current = now;
    update({ types: toggleType(filters.types, allTypes, type) });
  };
  const state = points.error ? 'error' : empty ? 'empty' : info && draws > 0 ? 'ready' : 'loading';

  return (
    <ViewFrame title="Map" intro="The incidents that match your filters, on a map that works offline." fill>
      <div className={styles.mapLayout}>
        <div className={styles.mapStage}>
          <div
            ref={ref}
            className={styles.mapCanvas}
            data-testid="map"
            data-map-state={state}
            tabIndex={0}
            data-draws={draws}
            aria-label="Map of incidents"
            role="region"
          />
          <MapToolbar layers={layers} onChange={setLayers} basemap={basemap.info} />
          <LayersPanel map={map} theme={theme} />
          <PlaybackControl
            map={map}
            client={client}
            filters={filters}
            dataVersion={dataVersion}
            onInView={setPeriodInView}
            onFrame={setFrame}
          />
          <Legend
            entries={frame ? frameEntries(entries, frame.byType) : entries}
            inView={periodInView ?? inView}
            inViewOf={periodInView ? 'period' : 'map'}
            shown={(t) => isShown(filters.types, t)}
            onToggle={onToggle}
            heat={layers.heat}
            total={frame ? frame.total : counts.total}
            initiallyOpen={!small}
            key={small ? 'small' : 'large'}
          />
          <p className={styles.mapAttribution} data-testid="map-attribution">
            {basemap.attribution.join(' · ')}
          </p>
          {(info === null ? sketch.updating : points.updating === true) ? (
            <p className={styles.mapUpdating} role="status" data-testid="map-updating">
              Updating: reading what changed since Blotter was last open…
            </p>
          ) : null}
          {points.loading && info === null && !empty && !sketch.drawn ? (
            <p className={styles.mapBusy}>Loading incidents…</p>
          ) : null}
          {points.error ? (
            <p className={styles.mapBusy} role="alert">
              {points.error}
            </p>
          ) : null}
          {spot ? (
            <SpotList
              spot={spot}
              onOpen={(cdid) => select({ cdid, lat: spot.lat, lon: spot.lon })}
              onClose={() => setSpot(null)}
            />
          ) : null}
          {empty ? (
            <div className={styles.mapEmpty}>
              <EmptyState
                setup={setup}
                title="No incidents yet"
                text="Add an area to watch in Areas, then sync it. Its incidents appear on this map and stay available offline."
                action={{ view: 'areas', label: 'Go to Areas' }}
              />
            </div>
          ) : null}
        </div>
        {openCdid !== null ? (
          <IncidentPanel cdid={openCdid} onClose={() => select(null)} className={styles.panel} />
        ) : null}
      </div>
    </ViewFrame>
  );
}
