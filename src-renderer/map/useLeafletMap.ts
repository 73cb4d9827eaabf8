/** One Leaflet map for the lifetime of a component, in the element of the returned ref. */
import type * as L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { createMap, type MapStart } from './mapSetup';
import { mark } from './perf';

export function useLeafletMap(
  background: string,
  start: MapStart = null,
): {
  ref: React.RefObject<HTMLDivElement | null>;
  map: L.Map | null;
} {
  const ref = useRef<HTMLDivElement | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  // Only the first view counts (a later saved view is where this map already is).
  const first = useRef(start);
  useEffect(() => {
    if (!ref.current) return;
    const created = createMap(ref.current, background, first.current);
    mark('map-created');
    setMap(created);
    const observer = new ResizeObserver(() => created.invalidateSize({ pan: false }));
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      created.remove();
      setMap(null);
    };
  }, [background]);
  return { ref, map };
}
