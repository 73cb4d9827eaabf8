/** The description part of the incident panel: stored text, a fetch under way, or why it is missing. */
import { useEffect, useId, useState } from 'react';
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { descriptionView, type FetchStatus } from './descriptionState';
import { ownTimeText } from './timeText';
import styles from './incident.module.css';

export type DescriptionSectionProps = {
  detail: IncidentDetail;
  fetch: FetchStatus;
  online: boolean | null;
  onFetch: () => void;
};

export function DescriptionSection({ detail, fetch, online, onFetch }: DescriptionSectionProps) {
  const headingId = useId();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (fetch.status !== 'fetching') return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [fetch.status]);
  const view = descriptionView(detail, fetch, online, now);
  return (
    <section className={styles.incidentDescription} aria-labelledby={headingId} data-state={view.kind}>
      <h3 id={headingId}>Description</h3>
      {view.kind === 'stored' ? (
        <>
          <p className={styles.descriptionText}>{view.text}</p>
          {view.fetchedAt ? <p className={styles.factHint}>Fetched {ownTimeText(view.fetchedAt)}</p> : null}
        </>
      ) : null}
      {view.kind === 'gone' ? <p className="muted">{view.text}</p> : null}
      {view.kind === 'fetching' ? (
        <p role="status" className="muted">
          <span className="spinner" aria-hidden="true" /> {view.text}
        </p>
      ) : null}
      {view.kind === 'not-fetched' ? (
        <div role="status">
          <p className={styles.descriptionMissing}>{view.text}</p>
          {view.reason ? <p className="muted">{view.reason}</p> : null}
          <button type="button" className="button" onClick={onFetch}>
            {view.button}
          </button>
        </div>
      ) : null}
    </section>
  );
}
