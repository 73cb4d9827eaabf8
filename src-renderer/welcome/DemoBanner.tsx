/**
 * The label that never leaves the screen while the demo runs: everything shown is synthetic, where
 * it is kept, how its sync is going, and "Remove demo data" (with a confirmation), which deletes
 * the demo folder and its key and returns to the welcome screen. It collapses to one line (the label,
 * the sync status and the buttons) and starts so, to leave the map its room; "Details" unfolds it.
 */
import { useRef, useState } from 'react';
import { DEMO_LABEL, type DemoStatus } from '../../src-shared/firstRun';
import { ConfirmDialog } from '../shell/ConfirmDialog';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { demoSync } from './demoProgress';
import styles from './welcome.module.css';

export type DemoBannerProps = { demo: DemoStatus; onRemove: () => Promise<void> };

export function DemoBanner({ demo, onRemove }: DemoBannerProps) {
  const { activity, areas } = useWorkspace();
  const area = areas?.find((a) => a.id === demo.areaId) ?? areas?.[0];
  const sync = demoSync(area ? activity.progress.get(area.id) : undefined, area);
  return <DemoBannerView demo={demo} sync={sync} onRemove={onRemove} />;
}

export function DemoBannerView({
  demo,
  sync,
  onRemove,
}: DemoBannerProps & { sync: ReturnType<typeof demoSync> }) {
  const [confirming, setConfirming] = useState(false);
  const [collapsed, setCollapsed] = useState(true);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const openerRef = useRef<HTMLButtonElement>(null);

  const remove = () => {
    setRemoving(true);
    setError(null);
    onRemove().catch((failure: unknown) => {
      setError(errorText(failure));
      setRemoving(false);
    });
  };

  return (
    <aside
      className={styles.demoBanner}
      aria-label={DEMO_LABEL}
      data-testid="demo-banner"
      data-demo-sync={sync.state}
      data-collapsed={collapsed}
    >
      <div className={styles.demoBannerMain}>
        <span className={`badge ${styles.badgeDemo}`}>{DEMO_LABEL}</span>
        {collapsed ? null : (
          <span className={styles.demoExplain}>
            Made-up incidents from Blotter&apos;s built-in simulator{demo.city ? ` (${demo.city})` : ''}:
            nothing here is real.{demo.dataDir ? ' Kept apart from your own data, in ' : ''}
            {demo.dataDir ? <code>{demo.dataDir}</code> : null}
            {demo.dataDir ? '.' : ''}
          </span>
        )}
        <p className={styles.demoBannerSync} role="status" title={collapsed ? sync.text : undefined}>
          {sync.text}
          {demo.keyStorage === 'memory'
            ? ' (No keychain is reachable: the demo key is kept in memory only.)'
            : ''}
        </p>
        <span className={styles.demoButtons}>
          <button
            type="button"
            className="link-button"
            aria-expanded={!collapsed}
            onClick={() => setCollapsed(!collapsed)}
          >
            {collapsed ? 'Details' : 'Less'}
          </button>
          <button type="button" ref={openerRef} className="button" onClick={() => setConfirming(true)}>
            Remove demo data…
          </button>
        </span>
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Remove the demo data?"
          confirmLabel="Remove demo data"
          busyLabel="Removing…"
          busy={removing}
          danger
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
          fallbackFocus={() => openerRef.current}
        >
          <p>
            Delete the demo data folder and the demo key, and go back to the welcome screen? Your own data is
            not touched.
          </p>
          {error ? (
            <p className="message message-error" role="alert">
              {error}
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </aside>
  );
}
