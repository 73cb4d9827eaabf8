/**
 * For e2e and the benchmark: `window.__blotterMapTest` — where a position is on screen, moving the
 * map, and its zoom and box — for as long as the Map view's map lives. Nothing here returns the
 * Leaflet map itself (a `page.evaluate` would serialize all of it).
 */
import type * as L from 'leaflet';
import { useEffect } from 'react';

declare global {
  interface Window {
    /** For e2e and the benchmark: where a position is on screen, and moving the map. */
    __blotterMapTest?: {
      project(lat: number, lon: number): { x: number; y: number };
      setView(lat: number, lon: number, zoom: number): void;
      /** The map's zoom and visible box. */
      view(): { zoom: number; west: number; south: number; east: number; north: number };
    };
  }
}

export function useMapTestHook(map: L.Map | null): void {
  useEffect(() => {
    if (!map) return;
    window.__blotterMapTest = {
      project: (lat, lon) => map.latLngToContainerPoint([lat, lon]),
      setView: (lat, lon, zoom) => void map.setView([lat, lon], zoom, { animate: false }),
      view: () => {
        const b = map.getBounds();
        return {
          zoom: map.getZoom(),
          west: b.getWest(),
          south: b.getSouth(),
          east: b.getEast(),
          north: b.getNorth(),
        };
      },
    };
    return () => {
      delete window.__blotterMapTest;
    };
  }, [map]);
}
