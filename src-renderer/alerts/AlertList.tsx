/** The inbox's alerts, newest first: rule, incidents, area and time, later changes, failed deliveries; Show on map, Mark read. */
import type { Alert } from '../../src-shared/alerts';
import { instantText } from '../../src-shared/localTime';
import styles from './alerts.module.css';

type Props = {
  alerts: Alert[];
  areaName: (id: number | null) => string;
  onShow: (alert: Alert) => void;
  onRead: (alert: Alert) => void;
};

export function AlertList({ alerts, areaName, onShow, onRead }: Props) {
  return (
    <ul className={styles.list} aria-label="Alerts">
      {alerts.map((a) => (
        <li
          key={a.id}
          className={styles.item}
          data-unread={a.read ? 'false' : 'true'}
          data-testid="alert-item"
        >
          <span className={styles.itemTitle}>{a.ruleName}</span>
          <span>
            {a.cdids.length} {a.cdids.length === 1 ? 'incident' : 'incidents'} · {areaName(a.areaId)} ·{' '}
            {instantText(a.firedAt)}
            {a.read ? '' : ' · unread'}
          </span>
          {a.notes.length > 0 ? (
            <span className="muted">
              {a.notes.length} later {a.notes.length === 1 ? 'change' : 'changes'} (
              {[...new Set(a.notes.map((n) => n.kind))].join(', ')})
            </span>
          ) : null}
          {a.deliveries
            .filter((d) => d.state === 'failed' || d.lastError)
            .map((d) => (
              <span key={d.channel} className={styles.failed}>
                {d.channel}: {d.state === 'failed' ? 'failed' : 'retrying'} — {d.lastError}
              </span>
            ))}
          <span className={styles.itemActions}>
            <button type="button" className="button" onClick={() => onShow(a)}>
              Show on map
            </button>
            {a.read ? null : (
              <button type="button" className="link-button" onClick={() => onRead(a)}>
                Mark read
              </button>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
