/** After a successful connection test: a hint on Areas to add the first area, until one exists. */
import { useWorkspace } from '../workspace/WorkspaceContext';
import styles from './welcome.module.css';

export function FirstAreaHint({ onDismiss }: { onDismiss: () => void }) {
  const { areas } = useWorkspace();
  if (areas && areas.length > 0) return null;
  return (
    <aside className={styles.firstAreaHint} aria-label="Next step" data-testid="first-area-hint">
      <p>
        <strong>You&apos;re connected. Next: add the first area to watch.</strong> Draw a circle or a shape
        over the place you analyse, or search a city or ZIP code. Blotter then mirrors its incidents within
        your plan&apos;s rate and data window, and keeps them after they leave the API&apos;s window.
      </p>
      <button type="button" className="button-link" onClick={onDismiss}>
        Dismiss
      </button>
    </aside>
  );
}
