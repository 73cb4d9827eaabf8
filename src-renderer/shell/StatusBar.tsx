/**
 * The bar at the bottom: whether the API can be reached (offline: the local archive is shown), what
 * the syncs are doing (rate-limit waits counted down), the latest failure in plain words with what
 * to do, the key's state, the plan and the version. `WorkspaceStatusBar` feeds it from the workspace.
 */
import { hashOf } from '../app/routes';
import type { AppInfo } from '../app/appState';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';
import { PLANS } from '../../src-shared/plans';
import { count } from '../text/count';
import { HOST_LABEL } from '../text/hostLabel';
import type { Problem } from '../text/errorText';
import type { LinkStatus } from '../workspace/statusLine';
import styles from './statusBar.module.css';

function KeyState({ keyStatus }: { keyStatus: KeyStatus | null }) {
  if (!keyStatus) return <span>Checking the API key…</span>;
  if (!keyStatus.keychain.available) return <a href={hashOf('settings')}>No keychain available</a>;
  if (!keyStatus.keySet) return <a href={hashOf('settings')}>No API key set</a>;
  return <span>API key set</span>;
}

export type StatusBarProps = {
  link: LinkStatus;
  /** What the syncs are doing now, or the last outcome; null when nothing happened yet. */
  sync: string | null;
  failure: { area: string; problem: Problem } | null;
  /** Null until the keychain answered (launch does not wait for it). */
  keyStatus: KeyStatus | null;
  settings: SettingsView;
  appInfo: AppInfo | null;
};

export function StatusBar({ link, sync, failure, keyStatus, settings, appInfo }: StatusBarProps) {
  return (
    <footer className="status-bar">
      <span
        className="status-item"
        role="status"
        data-online={link.state}
        data-testid="link-status"
        title={link.detail}
      >
        <span className="dot" aria-hidden="true" />
        {link.text}
      </span>
      {sync ? (
        <span className="status-item" data-testid="sync-summary" aria-live="polite">
          {sync}
        </span>
      ) : null}
      {failure ? (
        <span className={`status-item ${styles.statusProblem}`} role="alert" data-testid="sync-problem">
          Sync of {failure.area} failed: {failure.problem.problem} {failure.problem.action}
          {failure.problem.settings ? (
            <>
              {' '}
              <a href={hashOf('settings')}>Open Settings</a>
            </>
          ) : null}
        </span>
      ) : null}
      <span className="status-item">
        <KeyState keyStatus={keyStatus} />
      </span>
      <span className="status-item">
        {PLANS[settings.plan].label} · {count(settings.effective.ratePerMinute)}/min ·{' '}
        {count(settings.effective.windowDays)}-day window
      </span>
      {appInfo ? (
        <span className="status-item status-end">
          Blotter {appInfo.version} · {HOST_LABEL[appInfo.host]}
        </span>
      ) : null}
    </footer>
  );
}
