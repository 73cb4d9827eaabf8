/**
 * The basemap every map view shares: bundled boundaries and place labels (always, offline), and the
 * user's street layer when Settings has one. Reloads the street layer when settings change.
 * Returns the attribution lines to show and the street layer's state.
 */
import type * as L from 'leaflet';
import { useEffect, useState } from 'react';
import type { BasemapInfo } from '../../../src-shared/basemap';
import type { Client } from '../../bridge/client';
import { useCurrentEffect } from '../../bridge/useCall';
import { useEngineEvent } from '../../bridge/useEngineEvent';
import { loadGazetteer } from '../../gazetteer';
import { addBoundaries } from './boundaries';
import { PlaceLabels } from './PlaceLabels';
import { streetAttribution } from './attribution';
import { RasterTiles } from './RasterTiles';
import { sameBasemap } from './sameBasemap';
import { ensureLabelPane, vectorTiles } from './VectorTiles';
import type { MapTheme } from './theme';

export const BUNDLED_ATTRIBUTION = 'Boundaries: US Census Bureau (us-atlas) · Places: zipcodes';

export type BasemapLayers = {
  info: BasemapInfo | null;
  attribution: string[];
};

/**
 * `show.holdLabels`: not yet — the place names (a 2 MB gazetteer to parse and lay out) wait until
 * the caller's first paint is done (the Map view: its first clusters).
 */
export function useBasemap(
  map: L.Map | null,
  client: Client,
  theme: MapTheme,
  show: { labels: boolean; streets: boolean; holdLabels?: boolean },
): BasemapLayers {
  const [info, setInfo] = useState<BasemapInfo | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => (map ? addBoundaries(map, theme) : undefined), [map, theme]);

  const labels = show.labels && !show.holdLabels;
  useCurrentEffect(
    (current) => {
      if (!map || !labels) return;
      let layer: PlaceLabels | null = null;
      void loadGazetteer().then((g) => {
        if (current()) layer = new PlaceLabels(g, theme).addTo(map);
      });
      return () => void layer?.remove();
    },
    [map, theme, labels],
  );

  useEngineEvent(client, ['settingsChanged', 'basemapProgress'], (event) => {
    if (event.type === 'settingsChanged' || event.state === 'done') setVersion((v) => v + 1);
  });

  useCurrentEffect(
    (current) => {
      client.call('getBasemapInfo', {}).then(
        // The same basemap keeps its layer: a settings change elsewhere (a sync's, the demo's) must
        // not tear the streets down and fetch every tile again.
        (next) => current() && setInfo((prev) => (sameBasemap(prev, next) ? prev : next)),
        () => current() && setInfo(null),
      );
    },
    [client, version],
  );

  const ready = info?.status === 'ready';
  useEffect(() => {
    if (!map || !info || !ready || !show.streets) return;
    if (info.format === 'mvt') {
      ensureLabelPane(map);
      const layer = vectorTiles(client, info, theme.flavor).addTo(map);
      return () => void layer.remove();
    }
    const layer = new RasterTiles(client, info).addTo(map);
    return () => void layer.remove();
  }, [map, client, info, ready, show.streets, theme]);

  const streets = ready && show.streets ? streetAttribution(info) : '';
  return { info, attribution: [streets, BUNDLED_ATTRIBUTION].filter(Boolean) };
}
