/** The legends of the analysis layers: hot spot bins, and density classes in incidents per square mile. */
import { BIN_LABELS, BINS, binColour, densityText, KDE_RAMP, kdeBreaks } from './palette';
import styles from './analysis.module.css';

export function HotSpotLegend({ counts }: { counts: Record<number, number> }) {
  return (
    <figure className={styles.legend} data-testid="analysis-legend">
      <figcaption>Getis-Ord Gi* hot spots (after FDR correction)</figcaption>
      <ul>
        {BINS.map((bin) => (
          <li key={bin}>
            <span className={styles.swatch} style={{ background: binColour(bin) }} aria-hidden="true" />
            {BIN_LABELS[bin]} <span className="muted">({counts[bin] ?? 0} cells)</span>
          </li>
        ))}
      </ul>
      <p className="muted small">Cells outside the synced areas are left out, not shown as cold.</p>
    </figure>
  );
}

export function KdeLegend({ max }: { max: number }) {
  const breaks = kdeBreaks(max);
  return (
    <figure className={styles.legend} data-testid="analysis-legend">
      <figcaption>Kernel density, incidents per square mile</figcaption>
      <ul>
        {KDE_RAMP.map(([r, g, b], k) => (
          <li key={k}>
            <span
              className={styles.swatch}
              style={{ background: `rgb(${r},${g},${b})` }}
              aria-hidden="true"
            />
            {densityText(k === 0 ? 0 : (breaks[k - 1] as number))} – {densityText(breaks[k] as number)}
          </li>
        ))}
      </ul>
    </figure>
  );
}
