/** The alert rules: name, what each watches, paused or not; Edit, Pause or Resume, Remove…. */
import type { AlertRule } from '../../src-shared/alerts';
import styles from './alerts.module.css';

type Props = {
  rules: AlertRule[];
  watches: (rule: AlertRule) => string;
  onEdit: (rule: AlertRule) => void;
  onPause: (rule: AlertRule) => void;
  onRemove: (rule: AlertRule) => void;
};

export function RuleList({ rules, watches, onEdit, onPause, onRemove }: Props) {
  return (
    <ul className={styles.list} aria-label="Alert rules">
      {rules.map((r) => (
        <li key={r.id} className={styles.item}>
          <span className={styles.itemTitle}>{r.name}</span>
          <span>
            {watches(r)}
            {r.paused ? ' · paused' : ''}
          </span>
          <span className={styles.itemActions}>
            <button type="button" className="link-button" onClick={() => onEdit(r)}>
              Edit
            </button>
            <button type="button" className="link-button" onClick={() => onPause(r)}>
              {r.paused ? 'Resume' : 'Pause'}
            </button>
            <button
              type="button"
              className="link-button"
              aria-label={`Remove the rule ${r.name}`}
              onClick={() => onRemove(r)}
            >
              Remove…
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}
