/** The left navigation: one link per view; the current one carries aria-current="page". */
import { VIEWS, hashOf, type ViewId } from '../app/routes';
import { ViewIcon } from './icons';

export function Nav({ current }: { current: ViewId }) {
  return (
    <nav className="nav" aria-label="Views">
      <ul>
        {VIEWS.map((view) => (
          <li key={view.id}>
            <a
              className="nav-link"
              href={hashOf(view.id)}
              aria-current={view.id === current ? 'page' : undefined}
            >
              <ViewIcon view={view.id} />
              <span>{view.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
