/**
 * Whether the map is small (under 600 × 380 px): the legend then starts folded so it does not cover
 * the map (otherwise it is capped at half the map's height). Follows the map's size.
 */
import type * as L from 'leaflet';
import { useEffect, useState } from 'react';

export const isSmallMap = (width: number, height: number): boolean => width < 600 || height < 380;

export function useSmallMap(map: L.Map | null): boolean {
  const [small, setSmall] = useState(false);
  useEffect(() => {
    if (!map) return;
    const check = () => {
      const size = map.getSize();
      setSmall(isSmallMap(size.x, size.y));
    };
    check();
    map.on('resize', check);
    return () => void map.off('resize', check);
  }, [map]);
  return small;
}
