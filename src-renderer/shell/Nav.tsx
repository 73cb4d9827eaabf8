/**
 * The left navigation: one link per view; the current one carries aria-current="page". Below 1600 px
 * wide it folds to its icons (styles/app.css); each link keeps its name, and its tooltip says it.
 */
import { VIEWS, hashOf, type ViewId } from '../app/routes';
import { useUnreadAlerts } from '../alerts/AlertInbox';
import styles from '../alerts/alerts.module.css';
import { ViewIcon } from './icons';

export function Nav({ current }: { current: ViewId }) {
  const unread = useUnreadAlerts();
  return (
    <nav className="nav" aria-label="Views">
      <ul>
        {VIEWS.map((view) => (
          <li key={view.id}>
            <a
              className="nav-link"
              href={hashOf(view.id)}
              aria-current={view.id === current ? 'page' : undefined}
              aria-describedby={view.id === 'alerts' && unread > 0 ? 'nav-unread-alerts' : undefined}
              title={view.label}
            >
              <ViewIcon view={view.id} />
              <span className="nav-label">{view.label}</span>
              {view.id === 'alerts' && unread > 0 ? (
                <span
                  id="nav-unread-alerts"
                  className={styles.badge}
                  data-testid="unread-alerts"
                  aria-hidden="true"
                >
                  {unread}
                </span>
              ) : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
