/**
 * Creates the Leaflet map: canvas rendering (preferCanvas), no built-in attribution (ours is text
 * rendered by React), and the panes every layer draws into, bottom to top.
 */
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';

export const PANES: [name: string, zIndex: number][] = [
  ['blotter-land', 150],
  ['blotter-tiles', 210],
  ['blotter-lines', 350],
  ['blotter-labels', 380],
  ['blotter-heat', 390],
  ['blotter-areas', 400],
  ['blotter-clusters', 420],
  ['blotter-drawing', 430],
];

export const US_VIEW = { center: [39.5, -98.35] as L.LatLngTuple, zoom: 4 };

/** A saved view (settings.mapView) or null for the whole US. */
export type MapStart = { lat: number; lon: number; zoom: number } | null;

export function createMap(container: HTMLElement, background: string, start: MapStart = null): L.Map {
  const map = L.map(container, {
    preferCanvas: true,
    renderer: L.canvas({ padding: 0.2 }),
    attributionControl: false,
    zoomControl: true,
    minZoom: 2,
    maxZoom: 19,
    worldCopyJump: false,
    maxBounds: L.latLngBounds([-85, -250], [85, 250]),
    keyboard: true,
  });
  container.style.background = background;
  for (const [name, zIndex] of PANES) {
    const pane = map.createPane(name);
    pane.style.zIndex = String(zIndex);
    if (name !== 'blotter-drawing') pane.style.pointerEvents = 'none';
  }
  if (start) map.setView([start.lat, start.lon], start.zoom);
  else map.setView(US_VIEW.center, US_VIEW.zoom);
  return map;
}
