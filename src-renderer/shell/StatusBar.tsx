/** The bar at the bottom: network state (from connectivity events), key status, plan and version. */
import { hashOf } from '../app/routes';
import type { AppInfo, Connectivity } from '../app/appState';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';
import { PLANS } from '../../src-shared/plans';
import { count } from '../text/count';
import { HOST_LABEL } from '../text/hostLabel';

function connectivityText(connectivity: Connectivity): string {
  const state =
    connectivity.online === null ? 'Network: not checked yet' : connectivity.online ? 'Online' : 'Offline';
  return connectivity.message ? `${state} · ${connectivity.message}` : state;
}

function KeyState({ keyStatus }: { keyStatus: KeyStatus }) {
  if (!keyStatus.keychain.available) return <a href={hashOf('settings')}>No keychain available</a>;
  if (!keyStatus.keySet) return <a href={hashOf('settings')}>No API key set</a>;
  return <span>API key set</span>;
}

export type StatusBarProps = {
  connectivity: Connectivity;
  keyStatus: KeyStatus;
  settings: SettingsView;
  appInfo: AppInfo | null;
};

export function StatusBar({ connectivity, keyStatus, settings, appInfo }: StatusBarProps) {
  const online = connectivity.online === null ? 'unknown' : connectivity.online ? 'online' : 'offline';
  return (
    <footer className="status-bar">
      <span className="status-item" role="status" data-online={online}>
        <span className="dot" aria-hidden="true" />
        {connectivityText(connectivity)}
      </span>
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
