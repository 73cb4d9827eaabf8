/**
 * The selected incident on the map: a ring in the theme's selection colour with a halo, in a pane
 * above the clusters (so a mark never hides it), drawn where the incident is. A selection made
 * without a position (none known yet) asks the engine for it.
 */
import * as L from 'leaflet';
import { useEffect, useState } from 'react';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import type { SelectedIncident } from '../selection/SelectionContext';

export const SELECTION_PANE = 'blotter-selection';
const SELECTION_Z = 428;
export const RING_RADIUS_PX = 13;

type Spot = { cdid: number; lat: number; lon: number };

function ensurePane(map: L.Map): void {
  if (map.getPane(SELECTION_PANE)) return;
  const pane = map.createPane(SELECTION_PANE);
  pane.style.zIndex = String(SELECTION_Z);
  pane.style.pointerEvents = 'none';
}

/** Where the selected incident is: the selection's own position, or the engine's answer. */
function useSelectedSpot(client: Client, selected: SelectedIncident | null): Spot | null {
  const [asked, setAsked] = useState<Spot | null>(null);
  const known =
    selected && selected.lat !== undefined && selected.lon !== undefined
      ? { cdid: selected.cdid, lat: selected.lat, lon: selected.lon }
      : null;
  const cdid = selected && !known ? selected.cdid : null;
  useCurrentEffect(
    (current) => {
      if (cdid === null) return;
      client.call('getIncident', { cdid }).then(
        (d) => current() && setAsked({ cdid, lat: d.lat, lon: d.lon }),
        () => undefined,
      );
    },
    [client, cdid],
  );
  return known ?? (asked && asked.cdid === cdid ? asked : null);
}

/** Rings the selected incident; the map element says which and where (`data-selected`, `data-selected-at`). */
export function useSelectionRing(
  map: L.Map | null,
  client: Client,
  selected: SelectedIncident | null,
  colour: string,
  halo: string,
): void {
  const spot = useSelectedSpot(client, selected);
  const lat = spot?.lat;
  const lon = spot?.lon;
  const cdid = spot?.cdid;
  useEffect(() => {
    if (!map || lat === undefined || lon === undefined) return;
    ensurePane(map);
    const common = { pane: SELECTION_PANE, interactive: false, fill: false, radius: RING_RADIUS_PX };
    const group = L.layerGroup([
      L.circleMarker([lat, lon], { ...common, color: halo, weight: 7, opacity: 0.9 }),
      L.circleMarker([lat, lon], { ...common, color: colour, weight: 3.5, opacity: 1 }),
    ]).addTo(map);
    const container = map.getContainer();
    container.dataset.selected = String(cdid);
    container.dataset.selectedAt = `${lat},${lon}`;
    return () => {
      group.remove();
      delete container.dataset.selected;
      delete container.dataset.selectedAt;
    };
  }, [map, lat, lon, cdid, colour, halo]);
}
