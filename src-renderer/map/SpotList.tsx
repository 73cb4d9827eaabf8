/**
 * Incidents at one spot (or a cluster that cannot split further): each with its type, its local
 * date and time with the zone (as the incident panel writes it) and its address; pick one to open it.
 */
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { whenText } from '../incident/incidentFacts';
import { colourOf } from './palette';
import { useSpotDetails } from './useSpotDetails';
import styles from './map.module.css';

/** The incidents at one position (where the map rings the one picked). */
export type Spot = { total: number; rows: { cdid: number; type: string }[]; lat: number; lon: number };

/** The second and third lines of a row: when and where, once read. */
export function spotRowText(detail: IncidentDetail | undefined): { when: string; address: string } | null {
  return detail ? { when: whenText(detail), address: detail.address } : null;
}

export function SpotList({
  spot,
  onOpen,
  onClose,
}: {
  spot: Spot;
  onOpen: (cdid: number) => void;
  onClose: () => void;
}) {
  const details = useSpotDetails(spot.rows.map((r) => r.cdid));
  return (
    <section className={styles.mapSpot} aria-label="Incidents here" data-testid="map-spot">
      <header>
        <strong>{spot.total.toLocaleString('en-US')} incidents here</strong>
        <button type="button" className="icon-button" aria-label="Close the list" onClick={onClose}>
          ×
        </button>
      </header>
      <ul>
        {spot.rows.map((r) => {
          const text = spotRowText(details.get(r.cdid));
          return (
            <li key={r.cdid}>
              <button type="button" className={styles.spotRow} onClick={() => onOpen(r.cdid)}>
                <span
                  className={styles.legendSwatch}
                  style={{ background: colourOf(r.type), borderColor: colourOf(r.type) }}
                  aria-hidden="true"
                />
                <span className={styles.spotText}>
                  <span>
                    {r.type} <span className="muted">#{r.cdid}</span>
                  </span>
                  <span className={styles.spotWhen} data-testid="spot-when">
                    {text ? text.when : 'Loading…'}
                  </span>
                  {text ? <span className={styles.spotAddress}>{text.address}</span> : null}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {spot.total > spot.rows.length ? (
        <p className="muted">The first {spot.rows.length} are listed; zoom in or filter for the rest.</p>
      ) : null}
    </section>
  );
}
