/**
 * The vector basemap's look, in one place: protomaps' named flavour (light or dark) as
 * protomaps-leaflet paint and label rules (English names) and its background colour. The map's
 * layers (VectorTiles.ts), the report's streets (staticStreets.ts) and bench/basemap.ts draw with it.
 */
import { namedFlavor } from '@protomaps/basemaps';
import { labelRules, paintRules } from 'protomaps-leaflet';

export type Flavor = 'light' | 'dark';

export type FlavorStyle = {
  paintRules: ReturnType<typeof paintRules>;
  labelRules: ReturnType<typeof labelRules>;
  background: string;
};

export function flavorStyle(flavor: Flavor): FlavorStyle {
  const style = namedFlavor(flavor);
  return { paintRules: paintRules(style), labelRules: labelRules(style, 'en'), background: style.background };
}
