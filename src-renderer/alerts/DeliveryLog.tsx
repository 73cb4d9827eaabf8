/** The delivery log: every attempt, by rule, channel and time; a failed delivery offers Retry. */
import type { DeliveryLogEntry } from '../../src-shared/alertCalls';
import { instantText } from '../../src-shared/localTime';
import { OutcomeLine, type Outcome } from './deliveryParts';
import styles from './alerts.module.css';

type Props = {
  id: string;
  log: DeliveryLogEntry[];
  outcome: Outcome | null;
  onRetry: (deliveryId: DeliveryLogEntry['deliveryId']) => void;
};

export function DeliveryLog({ id, log, outcome, onRetry }: Props) {
  return (
    <>
      <h3>Delivery log</h3>
      <OutcomeLine id={`${id}-log-outcome`} outcome={outcome} shownPaths={[]} />
      {log.length === 0 ? (
        <p className="muted">Nothing sent yet.</p>
      ) : (
        <ul className={styles.list} aria-label="Delivery log">
          {log.map((entry, i) => (
            <li key={`${entry.deliveryId}-${i}`} className={styles.item}>
              <span className={styles.itemTitle}>{entry.ruleName}</span>
              <span>
                {entry.channel} · {instantText(entry.at)} ·{' '}
                {entry.ok ? 'delivered' : <span className={styles.failed}>failed: {entry.error}</span>}
              </span>
              {entry.state === 'failed' && i === log.findIndex((e) => e.deliveryId === entry.deliveryId) ? (
                <span className={styles.itemActions}>
                  <button type="button" className="link-button" onClick={() => onRetry(entry.deliveryId)}>
                    Retry
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
