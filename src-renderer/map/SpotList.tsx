/** Incidents at one spot (or a cluster that cannot split further): pick one to open it. */
import { colourOf } from './palette';
import styles from './map.module.css';

export type Spot = { total: number; rows: { cdid: number; type: string }[] };

export function SpotList({
  spot,
  onOpen,
  onClose,
}: {
  spot: Spot;
  onOpen: (cdid: number) => void;
  onClose: () => void;
}) {
  return (
    <section className={styles.mapSpot} aria-label="Incidents here" data-testid="map-spot">
      <header>
        <strong>{spot.total.toLocaleString('en-US')} incidents here</strong>
        <button type="button" className="icon-button" aria-label="Close the list" onClick={onClose}>
          ×
        </button>
      </header>
      <ul>
        {spot.rows.map((r) => (
          <li key={r.cdid}>
            <button type="button" className={styles.spotRow} onClick={() => onOpen(r.cdid)}>
              <span
                className={styles.legendSwatch}
                style={{ background: colourOf(r.type), borderColor: colourOf(r.type) }}
                aria-hidden="true"
              />
              {r.type} <span className="muted">#{r.cdid}</span>
            </button>
          </li>
        ))}
      </ul>
      {spot.total > spot.rows.length ? (
        <p className="muted">The first {spot.rows.length} are listed; zoom in or filter for the rest.</p>
      ) : null}
    </section>
  );
}
