/**
 * The incident panel: every field of one incident, its local time with the zone, the UTC instant
 * and the raw date string, daylight-saving flags explained, removal, the permalink (opened in the
 * system browser) and the description (fetched on request; offline it says why it is missing).
 * All text from the API is rendered as text. Escape or the close button closes it.
 */
import { lazy, Suspense, useId } from 'react';
import { typeColor } from '../filters/typeColors';
import { DescriptionSection } from './DescriptionSection';
import { ImportedFromSection } from './ImportedFromSection';
import { incidentFacts, safeLink, whenText } from './incidentFacts';
import { useEscapeToClose } from './useEscapeToClose';
import { useIncident } from './useIncident';
import styles from './incident.module.css';

// Leaflet loads with the mini-map, not with the panel.
const IncidentMiniMap = lazy(() => import('./IncidentMiniMap'));

/** `className` lets the view that hosts the panel size it (beside the table, over the map). */
export type IncidentPanelProps = { cdid: number; onClose: () => void; className?: string };

export function IncidentPanel({ cdid, onClose, className }: IncidentPanelProps) {
  const headingId = useId();
  useEscapeToClose(onClose);
  const { detail, error, fetch, fetchDescription, online } = useIncident(cdid);
  const link = detail ? safeLink(detail.link) : null;
  return (
    <aside
      className={className ? `${styles.incidentPanel} ${className}` : styles.incidentPanel}
      aria-labelledby={headingId}
      data-testid="incident-panel"
      data-cdid={cdid}
    >
      <header className={styles.incidentHead}>
        <h2 id={headingId}>
          {detail ? (
            <>
              <span className="swatch" style={{ background: typeColor(detail.type) }} aria-hidden="true" />
              {detail.type}
            </>
          ) : (
            `Incident ${cdid}`
          )}
        </h2>
        <button type="button" className="icon-button" aria-label="Close the incident" onClick={onClose}>
          ×
        </button>
      </header>
      {error ? (
        <p role="alert" className="message-error">
          {error}
        </p>
      ) : null}
      {!detail && !error ? <p className="muted">Loading…</p> : null}
      {detail ? (
        <>
          {detail.removedAt !== null ? (
            <p className={styles.incidentRemoved}>Removed from the API — kept in your local archive.</p>
          ) : null}
          <p className={styles.incidentAddress}>{detail.address}</p>
          <p className={styles.incidentWhen}>{whenText(detail)}</p>
          <Suspense fallback={null}>
            <IncidentMiniMap
              lat={detail.lat}
              lon={detail.lon}
              colour={typeColor(detail.type)}
              label={detail.address}
            />
          </Suspense>
          <DescriptionSection detail={detail} fetch={fetch} online={online} onFetch={fetchDescription} />
          {link ? (
            <a
              className={`button ${styles.incidentLink}`}
              href={link}
              target="_blank"
              rel="noopener noreferrer"
            >
              Open on the service’s site ↗
            </a>
          ) : (
            <p className="muted">No web page for this incident.</p>
          )}
          <h3 className={styles.incidentDetails}>Details</h3>
          <dl className={styles.incidentFacts}>
            {incidentFacts(detail).map((fact) => (
              <div key={fact.label} className={styles.fact}>
                <dt>{fact.label}</dt>
                <dd className={fact.mono ? styles.mono : undefined}>
                  {fact.value}
                  {fact.hint ? <span className={styles.factHint}>{fact.hint}</span> : null}
                </dd>
              </div>
            ))}
          </dl>
          {detail.importedFrom ? <ImportedFromSection from={detail.importedFrom} /> : null}
        </>
      ) : null}
    </aside>
  );
}
