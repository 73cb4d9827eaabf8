/**
 * What the heat colours mean, in the legend over the map: the ramp from few incidents (blue) to
 * the densest spot in the current view (red). The heat is relative to the view, so the words say so.
 */
import { heatGradientCss } from './heatGrid';
import styles from './map.module.css';

const GRADIENT = heatGradientCss();

export function HeatLegend() {
  return (
    <figure className={styles.heatLegend} data-testid="heat-legend" aria-label="Heat map colours">
      <figcaption>Heat: incidents per area</figcaption>
      <div className={styles.heatRamp} style={{ background: GRADIENT }} aria-hidden="true" />
      <div className={styles.heatEnds}>
        <span>Fewer</span>
        <span>Densest in view</span>
      </div>
    </figure>
  );
}
