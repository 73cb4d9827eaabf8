/** Layer switches over the map: clusters, heat, place names and the street layer (when one is set). */
import type { BasemapInfo } from '../../src-shared/basemap';
import styles from './map.module.css';

export type Layers = { clusters: boolean; heat: boolean; labels: boolean; streets: boolean };

export function MapToolbar({
  layers,
  onChange,
  basemap,
}: {
  layers: Layers;
  onChange: (next: Layers) => void;
  basemap: BasemapInfo | null;
}) {
  const toggle = (key: keyof Layers, label: string, disabled = false, title?: string) => (
    <label className={disabled ? `${styles.mapSwitch} ${styles.disabled}` : styles.mapSwitch} title={title}>
      <input
        type="checkbox"
        checked={layers[key] && !disabled}
        disabled={disabled}
        onChange={(e) => onChange({ ...layers, [key]: e.target.checked })}
      />
      {label}
    </label>
  );
  const streetsProblem =
    basemap?.status === 'error'
      ? (basemap.problem ?? 'The street layer cannot be drawn.')
      : basemap?.status !== 'ready'
        ? 'No street layer is set. Add a .mbtiles/.pmtiles file or a tile URL in Settings → Map.'
        : undefined;
  return (
    <div className={styles.mapToolbar} role="group" aria-label="Map layers">
      {toggle('clusters', 'Clusters')}
      {toggle('heat', 'Heat')}
      {toggle('labels', 'Place names')}
      {toggle('streets', 'Streets', basemap?.status !== 'ready', streetsProblem)}
    </div>
  );
}
